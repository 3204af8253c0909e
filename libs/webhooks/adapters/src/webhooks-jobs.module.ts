import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { WEBHOOK_DELIVERY_REQUESTED } from '@leadflow/webhooks-core';
import { WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import { BullMqWebhookDeliveryScheduler } from './infrastructure/queue/bullmq-webhook-delivery.scheduler';
import { DeliverWebhookProcessor } from './interface/jobs/deliver-webhook.processor';
import { WEBHOOK_DELIVERY_QUEUE, WEBHOOKS_CONSUMER } from './interface/jobs/webhook-delivery.job';
import { WebhookDeliverySweeper } from './interface/jobs/webhook-delivery.sweeper';
import { WebhookEventsProcessor } from './interface/jobs/webhook-events.processor';
import { WebhooksCoreModule } from './webhooks-core.module';

/**
 * The webhooks context in the worker app: consumes the catalog events (outbox consumer `webhooks`) and
 * the api's delivery requests, delivers (queue `webhook-delivery`: one job per delivery, BullMQ retries
 * on the 12-step schedule) and, as a safety net, sweeps for deliveries whose job was lost. The
 * processors only dispatch commands. Needs QueueModule.forRoot and OutboxRelayModule.
 */
@Module({
  imports: [
    OutboxSubscriptionModule.forConsumer({ consumer: WEBHOOKS_CONSUMER, events: [...WEBHOOK_EVENTS, WEBHOOK_DELIVERY_REQUESTED] }),
    WebhooksCoreModule.register({ scheduler: BullMqWebhookDeliveryScheduler, imports: [BullModule.registerQueue({ name: WEBHOOK_DELIVERY_QUEUE })] }),
  ],
  providers: [WebhookEventsProcessor, DeliverWebhookProcessor, WebhookDeliverySweeper],
})
export class WebhooksJobsModule {}
