import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { WebhookSubscriptionView } from '../../webhook-views';

/** `GET /v1/webhooks`: the calling key's subscriptions. */
export class ListWebhookSubscriptionsQuery extends Query<Page<WebhookSubscriptionView>> {
  constructor(
    readonly accountId: AccountId,
    readonly apiKeyId: string,
  ) {
    super();
  }
}
