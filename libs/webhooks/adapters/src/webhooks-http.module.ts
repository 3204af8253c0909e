import { Module } from '@nestjs/common';
import { OutboxWebhookDeliveryScheduler } from './infrastructure/queue/outbox-webhook-delivery.scheduler';
import { WebhooksController } from './interface/http/webhooks.controller';
import { WebhooksCoreModule } from './webhooks-core.module';

/**
 * The webhooks context for the api app: subscriptions (`/v1/webhooks`), the sample feed
 * (`/v1/webhook-events`) and the operator's delivery list (`ListWebhookDeliveriesQuery`). Deliveries run
 * in the worker (WebhooksJobsModule); the api asks it to queue one through the outbox.
 */
@Module({
  imports: [WebhooksCoreModule.register({ scheduler: OutboxWebhookDeliveryScheduler })],
  controllers: [WebhooksController],
})
export class WebhooksHttpModule {}
