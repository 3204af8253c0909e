import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { Clock } from '@leadflow/shared-kernel';
import { AccountsHttpModule } from '@leadflow/accounts-adapters';
import { OperatorHttpModule } from '@leadflow/operator-adapters';
import {
  ApiRequestGuard,
  AppConfig,
  createValidationPipe,
  ErrorEnvelopeFilter,
  NoopUsageRecorder,
  PlatformModule,
  UsageRecorder,
} from '@leadflow/shared-platform';
import { HealthController } from './health.controller';

export interface ApiModuleOptions {
  config: AppConfig;
  clock?: Clock;
}

/** Composition root of the api app: platform, every context's HTTP module, the global request path. */
@Module({})
export class AppModule {
  static forRoot(options: ApiModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(options), AccountsHttpModule, OperatorHttpModule],
      controllers: [HealthController],
      providers: [
        { provide: UsageRecorder, useClass: NoopUsageRecorder },
        { provide: APP_GUARD, useClass: ApiRequestGuard },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
