import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { asAccountId, Clock, newId } from '@leadflow/shared-kernel';
import { isWebhookEventName } from '@leadflow/webhooks-contracts';
import { contactIdOf, storedBody } from '../../../domain/webhook-payload';
import { WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { WebhookDeliveryScheduler } from '../../ports/webhook-delivery.scheduler.port';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { FanOutWebhookEventCommand } from './fan-out-webhook-event.command';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * First half of the delivery engine: a catalog event becomes one delivery per matching subscription of
 * its account (`events` containing its name, or `"*"`), idempotent on (event, subscription), plus the
 * event's sample (it is now "recorded for samples"); then the deliveries still waiting for their first
 * attempt are queued (job id = delivery id, so a replayed event queues nothing twice). Internal event
 * types and events nobody listens to cost no write. Answers how many deliveries were queued.
 */
@CommandHandler(FanOutWebhookEventCommand)
export class FanOutWebhookEventHandler implements ICommandHandler<FanOutWebhookEventCommand> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly scheduler: WebhookDeliveryScheduler,
    private readonly clock: Clock,
  ) {}

  async execute({ event }: FanOutWebhookEventCommand): Promise<{ deliveries: number }> {
    if (!isWebhookEventName(event.type)) return { deliveries: 0 };
    const accountId = asAccountId(event.accountId);
    const listening = (await this.subscriptions.listening(accountId)).filter((s) => s.allEvents || s.events.includes(event.type));
    if (listening.length === 0) return { deliveries: 0 };
    const contactId = contactIdOf(event.payload);
    const waiting = await this.deliveries.createForEvent({
      accountId,
      eventId: event.id,
      event: event.type,
      contactId: contactId && UUID.test(contactId) ? contactId : null,
      body: storedBody(event.type, event.occurredAt, event.payload, event.actor),
      occurredAt: new Date(event.occurredAt),
      subscriptionIds: listening.map((s) => ({ deliveryId: newId(), subscriptionId: s.id })),
      now: this.clock.now(),
    });
    await this.scheduler.schedule(
      waiting.map((d) => ({ accountId: d.accountId, deliveryId: d.id, attemptsMade: d.attemptsMade, jobId: d.id, eventId: event.id, requestId: event.requestId ?? null })),
    );
    return { deliveries: waiting.length };
  }
}
