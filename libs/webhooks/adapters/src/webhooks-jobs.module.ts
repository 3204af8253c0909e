import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import { WebhookDeliveryService } from './application/webhook-delivery.service';
import { WebhookFanOutService } from './application/webhook-fan-out.service';
import { SecretCipher } from './infrastructure/crypto/secret-cipher';
import { TargetGuard } from './infrastructure/http/target-guard';
import { WebhookHttpClient } from './infrastructure/http/webhook-http-client';
import { ContactSystemReader } from './infrastructure/persistence/contact-system.reader';
import { DeliverWebhookProcessor } from './interface/jobs/deliver-webhook.processor';
import { WEBHOOK_DELIVERY_QUEUE, WEBHOOKS_CONSUMER } from './interface/jobs/webhook-delivery.job';
import { WebhookDeliverySweeper } from './interface/jobs/webhook-delivery.sweeper';
import { WebhookEventsProcessor } from './interface/jobs/webhook-events.processor';

/**
 * The webhooks context in the worker app: consumes the catalog events (outbox consumer `webhooks`),
 * fans them out to the account's matching subscriptions (one `webhooks.deliveries` row each), delivers
 * them (queue `webhook-delivery`, one delayed job per attempt) and sweeps for deliveries whose job was
 * lost. Needs QueueModule.forRoot and OutboxRelayModule.
 */
@Module({
  imports: [
    OutboxSubscriptionModule.forConsumer({ consumer: WEBHOOKS_CONSUMER, events: [...WEBHOOK_EVENTS] }),
    BullModule.registerQueue({ name: WEBHOOK_DELIVERY_QUEUE }),
  ],
  providers: [
    SecretCipher,
    TargetGuard,
    WebhookHttpClient,
    ContactSystemReader,
    WebhookFanOutService,
    WebhookDeliveryService,
    WebhookEventsProcessor,
    DeliverWebhookProcessor,
    WebhookDeliverySweeper,
  ],
})
export class WebhooksJobsModule {}
