import { DynamicModule, Module } from '@nestjs/common';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig, PlatformModule, QueueModule } from '@leadflow/shared-platform';

export interface WorkerModuleOptions {
  config: AppConfig;
  clock?: Clock;
}

/** Composition root of the worker app: platform, BullMQ, every context's jobs module. No HTTP. */
@Module({})
export class WorkerModule {
  static forRoot(options: WorkerModuleOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [PlatformModule.forRoot(options), QueueModule.forRoot()],
    };
  }
}
