import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WebhookDeliveryNotFoundError, WebhookSubscriptionNotFoundError } from '../../../domain/webhooks.errors';
import { PublicDeliveryLog, PublicDeliveryView } from '../../ports/webhook-read-models.port';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { GetWebhookDeliveryQuery } from './get-webhook-delivery.query';

/**
 * One delivery with every attempt. 404 `not_found` `{ resource: 'webhook' }` unless the subscription is the
 * account's and the calling key's; 404 `not_found` `{ resource: 'webhook_delivery' }` unless the delivery
 * is that subscription's.
 */
@QueryHandler(GetWebhookDeliveryQuery)
export class GetWebhookDeliveryHandler implements IQueryHandler<GetWebhookDeliveryQuery> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly log: PublicDeliveryLog,
  ) {}

  async execute({ accountId, apiKeyId, subscriptionId, deliveryId }: GetWebhookDeliveryQuery): Promise<PublicDeliveryView> {
    if (!(await this.subscriptions.findOwned(accountId, apiKeyId, subscriptionId))) throw new WebhookSubscriptionNotFoundError();
    const delivery = await this.log.get(accountId, subscriptionId, deliveryId);
    if (!delivery) throw new WebhookDeliveryNotFoundError();
    return delivery;
  }
}
