import { Query } from '@nestjs/cqrs';
import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';

/** State of a delivery: `pending` (first attempt not made yet), `retrying`, `succeeded`, `failed` (attempts exhausted or target refused). */
export type WebhookDeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed';

/** One delivery as `GET /admin/v1/accounts/{id}/webhook-deliveries` shows it (operator-api › Further operator endpoints). */
export interface WebhookDeliveryView {
  /** The delivery id (`X-Service-Delivery`, payload `id`). */
  id: string;
  subscription_id: string;
  event: string;
  status: WebhookDeliveryStatus;
  /** Attempts made so far (0 before the first). */
  attempt: number;
  /** HTTP status of the last attempt, null when none answered (timeout, network error, refused target). */
  response_status: number | null;
  /** ISO 8601 UTC; null once succeeded or failed. */
  next_attempt_at: string | null;
  /** ISO 8601 UTC with milliseconds. */
  created_at: string;
}

/** The account's webhook deliveries, newest first (`created_at DESC, id DESC`), keyset-paginated, exact `total_count`. */
export class ListWebhookDeliveriesQuery extends Query<Page<WebhookDeliveryView>> {
  constructor(
    readonly accountId: AccountId,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }
}
