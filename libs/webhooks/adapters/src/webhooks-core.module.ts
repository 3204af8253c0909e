import { DynamicModule, Module, Type } from '@nestjs/common';
import {
  ContactSystemLookup,
  PublicDeliveryLog,
  WEBHOOKS_HANDLERS,
  WebhookDeliveriesReadModel,
  WebhookDeliveryRepository,
  WebhookDeliveryScheduler,
  WebhookDeliverySettings,
  WebhookSamplesReadModel,
  WebhookSecretVault,
  WebhookSender,
  WebhooksSandboxData,
  WebhookSubscriptionRepository,
  WebhookTargetCheck,
} from '@leadflow/webhooks-core';
import { AppConfigWebhookSettings } from './infrastructure/config/app-config-webhook-settings';
import { WebhookSecretCipher } from './infrastructure/crypto/secret-cipher';
import { GuardedTargetCheck } from './infrastructure/http/guarded-target-check';
import { TargetGuard } from './infrastructure/http/target-guard';
import { WebhookHttpClient } from './infrastructure/http/webhook-http-client';
import { ContactSystemReader } from './infrastructure/persistence/contact-system.reader';
import { TypeOrmPublicDeliveryLog } from './infrastructure/persistence/typeorm-public-delivery-log';
import { TypeOrmWebhookDeliveriesReadModel } from './infrastructure/persistence/typeorm-webhook-deliveries.read-model';
import { TypeOrmWebhookDeliveryRepository } from './infrastructure/persistence/typeorm-webhook-delivery.repository';
import { TypeOrmWebhookSamplesReadModel } from './infrastructure/persistence/typeorm-webhook-samples.read-model';
import { TypeOrmWebhookSubscriptionRepository } from './infrastructure/persistence/typeorm-webhook-subscription.repository';
import { PostgresWebhooksSandboxData } from './infrastructure/sandbox/webhooks-sandbox-data';

/**
 * The webhooks context's one core module: every handler ({@link WEBHOOKS_HANDLERS}, listed once in core)
 * and every port binding, imported by both WebhooksHttpModule and WebhooksJobsModule. The only binding
 * that differs is the delivery scheduler: the api (no queue) asks the worker through the outbox, the
 * worker queues BullMQ jobs; each app passes its own (and the imports it needs).
 */
@Module({})
export class WebhooksCoreModule {
  static register(options: { scheduler: Type<WebhookDeliveryScheduler>; imports?: DynamicModule['imports'] }): DynamicModule {
    return {
      module: WebhooksCoreModule,
      imports: options.imports ?? [],
      providers: [
        ...WEBHOOKS_HANDLERS,
        TargetGuard,
        { provide: WebhookSubscriptionRepository, useClass: TypeOrmWebhookSubscriptionRepository },
        { provide: WebhookDeliveryRepository, useClass: TypeOrmWebhookDeliveryRepository },
        { provide: WebhookSamplesReadModel, useClass: TypeOrmWebhookSamplesReadModel },
        { provide: WebhookDeliveriesReadModel, useClass: TypeOrmWebhookDeliveriesReadModel },
        { provide: PublicDeliveryLog, useClass: TypeOrmPublicDeliveryLog },
        { provide: WebhookSecretVault, useClass: WebhookSecretCipher },
        { provide: WebhookTargetCheck, useClass: GuardedTargetCheck },
        { provide: WebhookSender, useClass: WebhookHttpClient },
        { provide: ContactSystemLookup, useClass: ContactSystemReader },
        { provide: WebhooksSandboxData, useClass: PostgresWebhooksSandboxData },
        { provide: WebhookDeliverySettings, useClass: AppConfigWebhookSettings },
        { provide: WebhookDeliveryScheduler, useClass: options.scheduler },
      ],
      exports: [WebhookDeliverySettings],
    };
  }
}
