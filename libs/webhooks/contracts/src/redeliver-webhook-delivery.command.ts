import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/**
 * Who may redeliver: the public API passes the subscription named in the path and the calling key (a
 * delivery of another subscription, key or account answers 404 `not_found`); the operator API passes
 * `null` (any delivery of the account).
 */
export interface RedeliveryScope {
  subscriptionId: string;
  apiKeyId: string;
}

/** What a redelivery scheduled: the delivery (same id, so the same `webhook-id` header) and its new state. */
export interface WebhookRedelivery {
  /** The delivery id (`webhook-id`, `X-Service-Delivery` and payload `id` of the new attempt). */
  delivery_id: string;
  subscription_id: string;
  /** Always `pending`: the new attempt is queued to run at once. */
  status: 'pending';
  /** ISO 8601 UTC: when the new attempt was queued. */
  requested_at: string;
}

/**
 * A new attempt of an existing delivery, now (`POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver`,
 * and the operator console). The attempt keeps the delivery id (receivers deduplicate on `webhook-id`),
 * is counted in the delivery's attempt log like any other, and does not lengthen the retry schedule of
 * a delivery still retrying (it replaces the next scheduled attempt). Works on any delivery state,
 * including `succeeded` and `failed` (exhausted).
 *
 * Errors (DomainError codes): 404 `not_found` `{ resource: 'webhook_delivery' }` when the delivery is
 * not the account's (or, with a scope, not the subscription's / the key's); 409 `webhook_disabled`
 * `{ disabled_reason }` when its subscription is disabled (re-enable by creating it again), 404
 * `not_found` `{ resource: 'webhook' }` when the subscription was deleted.
 */
export class RedeliverWebhookDeliveryCommand extends Command<WebhookRedelivery> {
  constructor(
    readonly accountId: AccountId,
    readonly deliveryId: string,
    readonly scope: RedeliveryScope | null,
    readonly actor: Actor,
  ) {
    super();
  }
}
