import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Page } from '@leadflow/shared-kernel';
import { ListWebhookDeliveriesQuery, WebhookDeliveryView } from '@leadflow/webhooks-contracts';
import { WebhookDeliveriesReadModel } from '../../ports/webhook-read-models.port';

/**
 * `GET /admin/v1/accounts/{id}/webhook-deliveries` (operator-api): the account's deliveries newest first
 * (`created_at DESC, id DESC`), keyset page, exact `total_count`.
 */
@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery> {
  constructor(private readonly deliveries: WebhookDeliveriesReadModel) {}

  execute({ accountId, page }: ListWebhookDeliveriesQuery): Promise<Page<WebhookDeliveryView>> {
    return this.deliveries.listForOperator(accountId, page);
  }
}
