import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { RedeliverWebhookDeliveryCommand, WebhookRedelivery } from '@leadflow/webhooks-contracts';
import { WebhookDeliveryNotFoundError, WebhookDisabledError, WebhookSubscriptionNotFoundError } from '../../../domain/webhooks.errors';
import { WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { WebhookDeliveryScheduler } from '../../ports/webhook-delivery.scheduler.port';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';

/**
 * A new attempt of a delivery, now (issue 15, item 3; also the operator console's). With a scope, the
 * subscription must be the account's and the calling key's (else 404 `not_found` `{ resource: 'webhook' }`)
 * and the delivery that subscription's (else 404 `not_found` `{ resource: 'webhook_delivery' }`); a
 * disabled subscription gives 422 `business_rule_violation` `{ reason: 'webhook_disabled', disabled_reason }`.
 * The delivery becomes due now (kept id: the same `webhook-id`; its attempt log goes on) and a job
 * `<delivery>.r<epoch ms>` is queued in the same unit of work (through the outbox in the api), with the
 * attempts the schedule has left (at least one). Journals `webhook_redelivery_requested`.
 */
@CommandHandler(RedeliverWebhookDeliveryCommand)
export class RedeliverWebhookDeliveryHandler implements ICommandHandler<RedeliverWebhookDeliveryCommand> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly scheduler: WebhookDeliveryScheduler,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, deliveryId, scope, actor }: RedeliverWebhookDeliveryCommand): Promise<WebhookRedelivery> {
    if (scope) {
      const subscription = await this.subscriptions.findOwned(accountId, scope.apiKeyId, scope.subscriptionId);
      if (!subscription) throw new WebhookSubscriptionNotFoundError();
      if (subscription.disabledReason) throw new WebhookDisabledError(subscription.disabledReason);
    }
    const now = this.clock.now();
    const jobId = `${deliveryId}.r${now.getTime()}`;
    return this.unitOfWork.run(async () => {
      const prepared = await this.deliveries.prepareRedelivery(accountId, deliveryId, scope?.subscriptionId ?? null, jobId, now);
      if (!prepared) throw new WebhookDeliveryNotFoundError();
      await this.scheduler.schedule([{ accountId, deliveryId, attemptsMade: prepared.attemptsMade, jobId, requestedBy: actor }]);
      await this.journal.record(accountId, [
        { contactId: null, type: 'webhook_redelivery_requested', actor, data: { subscription_id: prepared.subscriptionId, delivery_id: deliveryId }, at: now },
      ]);
      return { delivery_id: deliveryId, subscription_id: prepared.subscriptionId, status: 'pending' as const, requested_at: now.toISOString() };
    });
  }
}
