import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { decideAttempt, ReceiverAnswer } from '../../../domain/delivery-attempt';
import { toPayload } from '../../../domain/webhook-payload';
import { webhookSignature } from '../../../domain/webhook-signature';
import { WebhookDeliveryRepository } from '../../ports/webhook-delivery.repository.port';
import { ContactSystemLookup, WebhookDeliverySettings, WebhookSecretVault, WebhookSender } from '../../ports/webhook-sender.port';
import { AttemptOutcome, AttemptWebhookDeliveryCommand } from './attempt-webhook-delivery.command';

/** User agent of every delivery. */
export const WEBHOOK_USER_AGENT = 'Leadflow-Webhooks/1.0';

/**
 * Second half of the delivery engine: one attempt of one delivery. The delivery row is the source of
 * truth; a queue job only wakes the attempt up.
 *
 * 1. Claim: the row is leased (`WEBHOOK_LEASE_MS`) only if it is `pending` or `retrying`, due, and not
 *    leased by a live attempt; otherwise nothing happens (`skipped`: a duplicate or early job).
 * 2. Its subscription deleted meanwhile: the delivery is `failed` (`subscription_deleted`). Otherwise the
 *    System is resolved, the body signed (`X-Service-Signature: t=…,v1=…`) and POSTed (10 s timeout,
 *    SSRF guard at connect time).
 * 3. The attempt row and the delivery's new state are recorded together ({@link decideAttempt}: 2xx →
 *    `succeeded`; refused target → `failed`; otherwise `retrying` with the schedule's wait, or `failed`
 *    after attempt 12). The caller (the delivery job) hands `retryDelayMs` to the queue's backoff.
 *
 * At-least-once: a worker that dies after the POST and before step 3 leaves the row leased; once the
 * lease expires the attempt is made again (job retry or sweeper), so the receiver may see the same
 * delivery id twice (receivers deduplicate on it).
 */
@CommandHandler(AttemptWebhookDeliveryCommand)
export class AttemptWebhookDeliveryHandler implements ICommandHandler<AttemptWebhookDeliveryCommand> {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
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
    if (!claimed.subscription) answer = { status: null, error: 'subscription_deleted', refused: true, durationMs: 0 };
    else {
      const system = claimed.contactId ? await this.systems.systemOf(accountId, claimed.contactId) : null;
      const rawBody = JSON.stringify(toPayload(claimed.body, claimed.id, system));
      const signature = webhookSignature(this.vault.decrypt(claimed.subscription.secretCiphertext), rawBody, Math.floor(this.clock.now().getTime() / 1000));
      answer = await this.sender.post(claimed.subscription.url, rawBody, {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'x-service-signature': signature,
        'x-service-event': claimed.event,
        'x-service-delivery': claimed.id,
      });
    }
    const now = this.clock.now();
    const decision = decideAttempt(attempt, answer, now, this.settings.retryBaseMs);
    await this.deliveries.recordAttempt(claimed, { attempt, answer, decision, at: now });
    return {
      result: decision.status,
      attempt,
      responseStatus: answer.status,
      error: decision.error,
      nextAttemptAt: decision.nextAttemptAt,
      retryDelayMs: decision.retryDelayMs,
    };
  }
}
