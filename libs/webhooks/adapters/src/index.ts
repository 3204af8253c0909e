import { WebhooksInit1795335361884 } from './infrastructure/persistence/migrations/1795335361884-webhooks-init';
import { WebhooksSubscriptionsDeliveries1795342000000 } from './infrastructure/persistence/migrations/1795342000000-webhooks-subscriptions-deliveries';
import { WebhooksDeliveryJobs1798100000000 } from './infrastructure/persistence/migrations/1798100000000-webhooks-delivery-jobs';
import { WebhooksRotationLogDisable1798200000000 } from './infrastructure/persistence/migrations/1798200000000-webhooks-rotation-log-disable';
import { WebhooksDeliveryBodyByEvent1799100000000 } from './infrastructure/persistence/migrations/1799100000000-webhooks-delivery-body-by-event';
import { WebhooksDeliveryLeaseHolder1799600000001 } from './infrastructure/persistence/migrations/1799600000001-webhooks-delivery-lease-holder';
import { WebhooksKeysByAccount1800000000800 } from './infrastructure/persistence/migrations/1800000000800-webhooks-keys-by-account';

export * from './webhooks-http.module';
export * from './webhooks-jobs.module';
export { WEBHOOK_DELIVERY_QUEUE, WEBHOOKS_CONSUMER } from './interface/jobs/webhook-delivery.job';
export { WebhookDeliverySweeper } from './interface/jobs/webhook-delivery.sweeper';
export { WebhooksCoreModule } from './webhooks-core.module';
export { BullMqWebhookDeliveryScheduler } from './infrastructure/queue/bullmq-webhook-delivery.scheduler';

/** Migrations of the `webhooks` schema, in order. */
export const webhooksMigrations = [WebhooksInit1795335361884, WebhooksSubscriptionsDeliveries1795342000000, WebhooksDeliveryJobs1798100000000, WebhooksRotationLogDisable1798200000000, WebhooksDeliveryBodyByEvent1799100000000,
  WebhooksDeliveryLeaseHolder1799600000001, WebhooksKeysByAccount1800000000800];
