import { Module } from '@nestjs/common';
import { ListWebhookDeliveriesHandler } from './application/list-webhook-deliveries.handler';
import { WebhookSamplesService } from './application/webhook-samples.service';
import { WebhookSubscriptionsService } from './application/webhook-subscriptions.service';
import { SecretCipher } from './infrastructure/crypto/secret-cipher';
import { TargetGuard } from './infrastructure/http/target-guard';
import { WebhooksController } from './interface/http/webhooks.controller';

/**
 * The webhooks context for the api app: subscriptions (`/v1/webhooks`), the sample feed
 * (`/v1/webhook-events`) and the operator's delivery list (`ListWebhookDeliveriesQuery`, served by the
 * operator API). Deliveries run in the worker (WebhooksJobsModule).
 */
@Module({
  controllers: [WebhooksController],
  providers: [WebhookSubscriptionsService, WebhookSamplesService, ListWebhookDeliveriesHandler, SecretCipher, TargetGuard],
})
export class WebhooksHttpModule {}
