import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { WebhookDeliveryView } from '@leadflow/webhooks-contracts';
import type { WebhookPayload } from '../../domain/webhook-payload';

/** `GET /v1/webhook-events`: recorded samples and catalog activity entries, newest first, payload shape. */
export abstract class WebhookSamplesReadModel {
  abstract latest(accountId: AccountId, events: readonly string[], limit: number): Promise<WebhookPayload[]>;
}

/** The operator's delivery list (`ListWebhookDeliveriesQuery`): newest first, keyset page, exact `total_count`. */
export abstract class WebhookDeliveriesReadModel {
  abstract listForOperator(accountId: AccountId, page: { limit: number; after: KeysetPosition | null }): Promise<Page<WebhookDeliveryView>>;
}

/** Public status of a delivery: `pending` (no attempt yet), `failed` (last attempt failed, another is scheduled), `succeeded`, `exhausted` (no attempt left). */
export type PublicDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'exhausted';

/** One attempt in the public delivery log. */
export interface DeliveryAttemptView {
  attempt: number;
  /** ISO 8601 UTC with milliseconds. */
  attempted_at: string;
  /** HTTP status, null when nothing answered. */
  response_status: number | null;
  latency_ms: number;
  /** First 1 KiB of the response body, null when none. */
  response_body: string | null;
  /** `HTTP <status>` or the network error; null on success. */
  error: string | null;
}

/** A delivery as `GET /v1/webhooks/{id}/deliveries[/{delivery_id}]` shows it. */
export interface PublicDeliveryView {
  id: string;
  webhook_id: string;
  event: string;
  status: PublicDeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  attempts: DeliveryAttemptView[];
}

/** Filters of the public delivery log (already validated). */
export interface PublicDeliveryFilter {
  status: PublicDeliveryStatus | null;
  event: string | null;
  from: Date | null;
  to: Date | null;
}

/** The public delivery log of one subscription. */
export abstract class PublicDeliveryLog {
  /** Newest first (`created_at DESC, id DESC`), keyset page, exact `total_count` under the filters. */
  abstract list(accountId: AccountId, subscriptionId: string, filter: PublicDeliveryFilter, page: { limit: number; after: KeysetPosition | null }): Promise<Page<PublicDeliveryView>>;

  /** One delivery of the subscription with its attempts, or null. */
  abstract get(accountId: AccountId, subscriptionId: string, deliveryId: string): Promise<PublicDeliveryView | null>;
}
