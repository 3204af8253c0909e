import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page, unpaginated } from '@leadflow/shared-kernel';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { toSubscriptionView, WebhookSubscriptionView } from '../../webhook-views';
import { ListWebhookSubscriptionsQuery } from './list-webhook-subscriptions.query';

/** The calling key's subscriptions, newest first, never the secret; not paginated (at most 10). */
@QueryHandler(ListWebhookSubscriptionsQuery)
export class ListWebhookSubscriptionsHandler implements IQueryHandler<ListWebhookSubscriptionsQuery> {
  constructor(private readonly subscriptions: WebhookSubscriptionRepository) {}

  async execute({ accountId, apiKeyId }: ListWebhookSubscriptionsQuery): Promise<Page<WebhookSubscriptionView>> {
    return unpaginated((await this.subscriptions.listByKey(accountId, apiKeyId)).map(toSubscriptionView));
  }
}
