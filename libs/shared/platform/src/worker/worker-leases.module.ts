import { DynamicModule, Global, Module } from '@nestjs/common';
import { WorkerIdentity } from './worker-identity';
import { WORKER_LEASES_SETTINGS, WorkerLeases, WorkerLeasesSettings } from './worker-leases';

/**
 * The worker's identity and lease takeover (global, worker app only): {@link WorkerIdentity} (a new id per
 * process) and {@link WorkerLeases} (heartbeat in `platform.workers`, takeover of dead workers' leases).
 * Lease owners inject both with `@Optional()`: in the api neither exists and leases name no holder.
 */
@Global()
@Module({})
export class WorkerLeasesModule {
  static forRoot(settings: Partial<WorkerLeasesSettings> = {}, identity: WorkerIdentity = new WorkerIdentity()): DynamicModule {
    return {
      module: WorkerLeasesModule,
      providers: [{ provide: WorkerIdentity, useValue: identity }, { provide: WORKER_LEASES_SETTINGS, useValue: settings }, WorkerLeases],
      exports: [WorkerIdentity, WorkerLeases],
    };
  }
}
