import { EraseExpiredWebhookSecretsHandler } from './commands/erase-expired-webhook-secrets/erase-expired-webhook-secrets.handler';
import { RedeliverWebhookDeliveryHandler } from './commands/redeliver-webhook-delivery/redeliver-webhook-delivery.handler';
import { RotateWebhookSecretHandler } from './commands/rotate-webhook-secret/rotate-webhook-secret.handler';
import { GetWebhookDeliveryHandler } from './queries/get-webhook-delivery/get-webhook-delivery.handler';
import { ListPublicWebhookDeliveriesHandler } from './queries/list-webhook-deliveries-public/list-public-webhook-deliveries.handler';
import { AttemptWebhookDeliveryHandler } from './commands/attempt-webhook-delivery/attempt-webhook-delivery.handler';
import { CreateWebhookSubscriptionHandler } from './commands/create-webhook-subscription/create-webhook-subscription.handler';
import { DeleteWebhookSubscriptionHandler } from './commands/delete-webhook-subscription/delete-webhook-subscription.handler';
import { FanOutWebhookEventHandler } from './commands/fan-out-webhook-event/fan-out-webhook-event.handler';
import { QueueWebhookDeliveryHandler } from './commands/queue-webhook-delivery/queue-webhook-delivery.handler';
import { RescheduleLostDeliveriesHandler } from './commands/reschedule-lost-deliveries/reschedule-lost-deliveries.handler';
import { ListWebhookDeliveriesHandler } from './queries/list-webhook-deliveries/list-webhook-deliveries.handler';
import { ListWebhookEventSamplesHandler } from './queries/list-webhook-event-samples/list-webhook-event-samples.handler';
import { ListWebhookSubscriptionsHandler } from './queries/list-webhook-subscriptions/list-webhook-subscriptions.handler';
import { ListAccountWebhookSubscriptionsHandler } from './queries/list-webhook-subscriptions/list-account-webhook-subscriptions.handler';
import { ResetWebhooksDataHandler } from './commands/reset-webhooks-data/reset-webhooks-data.handler';
import { TakeOverDeliveriesHandler } from './commands/take-over-deliveries/take-over-deliveries.handler';

/**
 * Every command and query handler of the webhooks context, declared once; the adapters' core module
 * registers them all (with the port bindings) for both the api and the worker.
 */
export const WEBHOOKS_HANDLERS = [
  CreateWebhookSubscriptionHandler,
  DeleteWebhookSubscriptionHandler,
  FanOutWebhookEventHandler,
  AttemptWebhookDeliveryHandler,
  RescheduleLostDeliveriesHandler,
  TakeOverDeliveriesHandler,
  QueueWebhookDeliveryHandler,
  RotateWebhookSecretHandler,
  RedeliverWebhookDeliveryHandler,
  EraseExpiredWebhookSecretsHandler,
  ListPublicWebhookDeliveriesHandler,
  GetWebhookDeliveryHandler,
  ListWebhookSubscriptionsHandler,
  ListAccountWebhookSubscriptionsHandler,
  ListWebhookEventSamplesHandler,
  ListWebhookDeliveriesHandler,
  ResetWebhooksDataHandler,
];
