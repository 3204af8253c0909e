import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { WebhookSubscriptionNotFoundError } from '../../../domain/webhooks.errors';
import { WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { DeleteWebhookSubscriptionCommand } from './delete-webhook-subscription.command';

/**
 * Deletes the subscription for good: 404 `not_found` `{ resource: 'webhook' }` unless it is the
 * account's and the calling key's. In the same unit of work its deliveries still waiting become `failed`
 * (`subscription_deleted`; past ones stay visible) and a `webhook_subscription_deleted` entry is written.
 */
@CommandHandler(DeleteWebhookSubscriptionCommand)
export class DeleteWebhookSubscriptionHandler implements ICommandHandler<DeleteWebhookSubscriptionCommand> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, apiKeyId, actor, subscriptionId }: DeleteWebhookSubscriptionCommand): Promise<void> {
    await this.unitOfWork.run(async () => {
      const deleted = await this.subscriptions.deleteOwned(accountId, apiKeyId, subscriptionId);
      if (!deleted) throw new WebhookSubscriptionNotFoundError();
      const now = this.clock.now();
      await this.deliveries.failWaiting(accountId, subscriptionId, 'subscription_deleted', now);
      await this.journal.record(accountId, [
        { contactId: null, type: 'webhook_subscription_deleted', actor, data: { subscription_id: subscriptionId, url: deleted.url }, at: now },
      ]);
    });
  }
}
