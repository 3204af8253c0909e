import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { AttemptDecision, decideAttempt, ReceiverAnswer } from '../../../domain/delivery-attempt';
import { standardWebhooksHeaders } from '../../../domain/standard-webhooks';
import { toPayload } from '../../../domain/webhook-payload';
import { webhookSignature } from '../../../domain/webhook-signature';
import { ClaimedDelivery, WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { ContactSystemLookup, WebhookDeliverySettings, WebhookSecretVault, WebhookSender } from '../../ports/webhook-sender.port';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { AttemptOutcome, AttemptWebhookDeliveryCommand } from './attempt-webhook-delivery.command';

/** User agent of every delivery. */
export const WEBHOOK_USER_AGENT = 'Leadflow-Webhooks/1.0';

/**
 * Second half of the delivery engine: one attempt of one delivery. The delivery row is the source of
 * truth; a queue job only wakes the attempt up.
 *
 * 1. Claim: the row is leased (`WEBHOOK_LEASE_MS`) only if it is `pending` or `retrying`, due, and not
 *    leased by a live attempt; otherwise nothing happens (`skipped`: a duplicate or early job).
 * 2. Its subscription deleted or disabled meanwhile: the delivery is `failed` (`subscription_deleted`,
 *    `subscription_disabled`). Otherwise the System is resolved, the body signed with every live secret
 *    (the current one, and the previous one for 24 h after a rotation): `X-Service-Signature: t=…,v1=…`
 *    and the Standard Webhooks `webhook-id` (the delivery id), `webhook-timestamp`, `webhook-signature`,
 *    and POSTed (10 s timeout, SSRF guard at connect time, redirects not followed).
 * 3. The attempt row and the delivery's new state are recorded together ({@link decideAttempt}: 2xx →
 *    `succeeded`; refused target → `failed`; 410 or 5 days of failures → `failed` and the subscription
 *    disabled, its waiting deliveries failed and `webhook_disabled` journaled on the account's activity;
 *    otherwise `retrying` with the schedule's wait or the receiver's `Retry-After`, or `failed` after
 *    attempt 12). The caller (the delivery job) hands `retryDelayMs` to the queue's backoff.
 *
 * At-least-once: a worker that dies after the POST and before step 3 leaves the row leased; once the
 * lease expires the attempt is made again (job retry or sweeper), so the receiver may see the same
 * delivery id twice (receivers deduplicate on it).
 */
@CommandHandler(AttemptWebhookDeliveryCommand)
export class AttemptWebhookDeliveryHandler implements ICommandHandler<AttemptWebhookDeliveryCommand> {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly sender: WebhookSender,
    private readonly vault: WebhookSecretVault,
    private readonly systems: ContactSystemLookup,
    private readonly settings: WebhookDeliverySettings,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, deliveryId }: AttemptWebhookDeliveryCommand): Promise<AttemptOutcome> {
    const claimedAt = this.clock.now();
    const claimed = await this.deliveries.claim(accountId, deliveryId, new Date(claimedAt.getTime() + this.settings.leaseMs), claimedAt);
    if (typeof claimed === 'string') return { result: 'skipped', reason: claimed };
    const attempt = claimed.attemptsMade + 1;
    let answer: ReceiverAnswer;
    const subscription = claimed.subscription;
    if (!subscription) answer = { status: null, error: 'subscription_deleted', refused: true, durationMs: 0 };
    else if (subscription.disabledReason) answer = { status: null, error: 'subscription_disabled', refused: true, durationMs: 0 };
    else {
      const system = claimed.contactId ? await this.systems.systemOf(accountId, claimed.contactId) : null;
      const rawBody = JSON.stringify(toPayload(claimed.body, claimed.id, system, await this.systems.livemodeOf(accountId)));
      const secrets = [subscription.secretCiphertext, subscription.previousSecretCiphertext].filter((s): s is string => s !== null).map((s) => this.vault.decrypt(s));
      const unixSeconds = Math.floor(this.clock.now().getTime() / 1000);
      answer = await this.sender.post(subscription.url, rawBody, {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'x-service-signature': webhookSignature(secrets, rawBody, unixSeconds),
        'x-service-event': claimed.event,
        'x-service-delivery': claimed.id,
        ...standardWebhooksHeaders(claimed.id, unixSeconds, rawBody, secrets),
      });
    }
    const now = this.clock.now();
    const decision = decideAttempt(attempt, answer, now, this.settings.retryBaseMs, Math.random, subscription?.failingSince ?? null);
    const recorded = { attempt, answer, decision, at: now };
    if (decision.disable) await this.unitOfWork.run(async () => {
      await this.deliveries.recordAttempt(claimed, recorded);
      await this.disable(claimed, decision, now);
    });
    else await this.deliveries.recordAttempt(claimed, recorded);
    return {
      result: decision.status,
      attempt,
      responseStatus: answer.status,
      error: decision.error,
      nextAttemptAt: decision.nextAttemptAt,
      retryDelayMs: decision.retryDelayMs,
    };
  }

  /** Disables the subscription, fails its waiting deliveries and journals `webhook_disabled` (account activity), in the caller's unit of work. */
  private async disable(claimed: ClaimedDelivery, decision: AttemptDecision, now: Date): Promise<void> {
    const reason = decision.disable as string;
    const disabled = await this.subscriptions.disable(claimed.accountId, claimed.subscriptionId, reason, now);
    if (!disabled) return;
    await this.deliveries.failWaiting(claimed.accountId, claimed.subscriptionId, 'subscription_disabled', now);
    await this.journal.record(claimed.accountId, [
      {
        contactId: null,
        type: 'webhook_disabled',
        actor: { type: 'system', id: null, name: 'Leadflow webhooks', via: null },
        data: { subscription_id: claimed.subscriptionId, url: disabled.url, disabled_reason: reason, delivery_id: claimed.id },
        at: now,
      },
    ]);
  }
}
