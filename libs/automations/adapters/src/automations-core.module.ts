import { DynamicModule, Module, Type } from '@nestjs/common';
import {
  AUTOMATIONS_HANDLERS,
  AutomationCollaborators,
  AutomationsReadModel,
  AutomationsSandboxData,
  AutomationStore,
  DefaultExecutionEngineSettings,
  ExecutionEngineSettings,
  ExecutionScheduler,
} from '@leadflow/automations-core';
import { AppConfig } from '@leadflow/shared-platform';
import { CqrsAutomationCollaborators } from './infrastructure/cqrs/cqrs-automation-collaborators';
import { TypeOrmAutomationStore } from './infrastructure/persistence/typeorm-automation.store';
import { TypeOrmAutomationsReadModel } from './infrastructure/persistence/typeorm-automations.read-model';
import { PostgresAutomationsSandboxData } from './infrastructure/sandbox/automations-sandbox-data';

const positive = (value: number): number | undefined => (Number.isFinite(value) && value > 0 ? value : undefined);

/**
 * Engine settings from AppConfig (`AUTOMATION_LEASE_MS`, `AUTOMATION_SWEEP_INTERVAL_MS`,
 * `AUTOMATION_STALE_GRACE_MS`, `AUTOMATION_MAX_RETRIES`; defaults in DefaultExecutionEngineSettings).
 */
export function engineSettingsFrom(config: AppConfig): ExecutionEngineSettings {
  const engine = config.automationEngine;
  return new DefaultExecutionEngineSettings({
    leaseMs: positive(engine.leaseMs),
    sweepIntervalMs: positive(engine.sweepIntervalMs),
    staleGraceMs: positive(engine.staleGraceMs),
    maxRetries: positive(engine.maxRetries),
  });
}

/**
 * The automations context's one core module: every handler ({@link AUTOMATIONS_HANDLERS}, listed once in
 * core) and every port binding, imported by both AutomationsHttpModule and AutomationsJobsModule. The
 * only binding that differs is the engine's scheduler: the worker queues BullMQ jobs, the api (no queue)
 * passes one that refuses; each app passes its own (and the imports it needs). `UnitOfWork` and `Journal`
 * come from PlatformModule.
 */
@Module({})
export class AutomationsCoreModule {
  static register(options: { scheduler: Type<ExecutionScheduler>; imports?: DynamicModule['imports'] }): DynamicModule {
    return {
      module: AutomationsCoreModule,
      imports: options.imports ?? [],
      providers: [
        ...AUTOMATIONS_HANDLERS,
        { provide: AutomationStore, useClass: TypeOrmAutomationStore },
        { provide: AutomationsReadModel, useClass: TypeOrmAutomationsReadModel },
        { provide: AutomationCollaborators, useClass: CqrsAutomationCollaborators },
        { provide: AutomationsSandboxData, useClass: PostgresAutomationsSandboxData },
        { provide: ExecutionEngineSettings, inject: [AppConfig], useFactory: engineSettingsFrom },
        { provide: ExecutionScheduler, useClass: options.scheduler },
      ],
      exports: [ExecutionScheduler, ExecutionEngineSettings],
    };
  }
}
