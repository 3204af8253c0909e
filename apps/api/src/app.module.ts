import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { Clock } from '@leadflow/shared-kernel';
import { AccountsHttpModule } from '@leadflow/accounts-adapters';
import { AutomationsHttpModule } from '@leadflow/automations-adapters';
import { BookingsHttpModule } from '@leadflow/bookings-adapters';
import { ContactsHttpModule } from '@leadflow/contacts-adapters';
import { EventsHttpModule } from '@leadflow/events-adapters';
import { MessagingHttpModule } from '@leadflow/messaging-adapters';
import { OperatorHttpModule } from '@leadflow/operator-adapters';
import { PipelineHttpModule } from '@leadflow/pipeline-adapters';
import { QuotesHttpModule } from '@leadflow/quotes-adapters';
import { UsageHttpModule } from '@leadflow/usage-adapters';
import { WebhooksHttpModule } from '@leadflow/webhooks-adapters';
import {
  ApiRequestGuard,
  AppConfig,
  createValidationPipe,
  ErrorEnvelopeFilter,
  PlatformModule,
} from '@leadflow/shared-platform';
import { HealthModule } from './health.module';
import { DocsController } from './docs/docs.controller';
import { OpenApiController } from './openapi/openapi.controller';

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
      imports: [PlatformModule.forRoot(options), AccountsHttpModule, ContactsHttpModule, OperatorHttpModule, UsageHttpModule, PipelineHttpModule, MessagingHttpModule, QuotesHttpModule,
        BookingsHttpModule, WebhooksHttpModule, AutomationsHttpModule, EventsHttpModule, HealthModule],
      controllers: [OpenApiController, DocsController],
      providers: [
        { provide: APP_GUARD, useClass: ApiRequestGuard },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
