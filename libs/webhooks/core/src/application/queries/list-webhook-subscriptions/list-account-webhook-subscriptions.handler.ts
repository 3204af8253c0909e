import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListAccountWebhookSubscriptionsQuery, OperatorWebhookSubscriptionView } from '@leadflow/webhooks-contracts';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';

/** The operator console's list: every key's subscriptions of the account, newest first, never the secret (at most 10). */
@QueryHandler(ListAccountWebhookSubscriptionsQuery)
export class ListAccountWebhookSubscriptionsHandler implements IQueryHandler<ListAccountWebhookSubscriptionsQuery> {
  constructor(private readonly subscriptions: WebhookSubscriptionRepository) {}

  async execute({ accountId }: ListAccountWebhookSubscriptionsQuery): Promise<OperatorWebhookSubscriptionView[]> {
    const records = await this.subscriptions.listByKey(accountId, null);
    return records.map((record) => ({
      id: record.id,
      url: record.url,
      events: record.selection.all ? '*' : [...record.selection.events],
      api_key_id: record.apiKeyId,
      created_at: record.createdAt.toISOString(),
      disabled_reason: record.disabledReason ?? null,
    }));
  }
}
