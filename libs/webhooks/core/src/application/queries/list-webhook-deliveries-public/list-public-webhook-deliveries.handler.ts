import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Page } from '@leadflow/shared-kernel';
import { WebhookSubscriptionNotFoundError } from '../../../domain/webhooks.errors';
import { PublicDeliveryLog, PublicDeliveryView } from '../../ports/webhook-read-models.port';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { ListPublicWebhookDeliveriesQuery } from './list-public-webhook-deliveries.query';

/**
 * The public delivery log of a subscription (issue 15, item 3): newest first, keyset page, each delivery
 * with its attempts (time, response status, latency, first 1 KiB of the answer). 404 `not_found`
 * `{ resource: 'webhook' }` unless the subscription is the account's and the calling key's.
 */
@QueryHandler(ListPublicWebhookDeliveriesQuery)
export class ListPublicWebhookDeliveriesHandler implements IQueryHandler<ListPublicWebhookDeliveriesQuery> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly log: PublicDeliveryLog,
  ) {}

  async execute({ accountId, apiKeyId, subscriptionId, filter, page }: ListPublicWebhookDeliveriesQuery): Promise<Page<PublicDeliveryView>> {
    if (!(await this.subscriptions.findOwned(accountId, apiKeyId, subscriptionId))) throw new WebhookSubscriptionNotFoundError();
    return this.log.list(accountId, subscriptionId, filter, page);
  }
}
