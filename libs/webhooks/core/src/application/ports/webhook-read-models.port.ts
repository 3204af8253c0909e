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
