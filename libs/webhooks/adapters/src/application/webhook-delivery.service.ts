import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig, TransactionHost } from '@leadflow/shared-platform';
import { nextRetryDelayMs, webhookSignature } from '@leadflow/webhooks-core';
import type { WebhookDeliveryStatus } from '@leadflow/webhooks-contracts';
import { SecretCipher } from '../infrastructure/crypto/secret-cipher';
import { WebhookHttpClient } from '../infrastructure/http/webhook-http-client';
import { ContactSystemReader } from '../infrastructure/persistence/contact-system.reader';
import { rowsOf } from '../infrastructure/persistence/sql-rows';
import { StoredWebhookBody, toPayload } from './webhook-payload';

/** What one run of a delivery job did. */
export type AttemptOutcome =
  | { result: 'skipped'; reason: 'not_due' | 'settled' | 'busy' | 'missing' }
  | { result: WebhookDeliveryStatus; attempt: number; responseStatus: number | null; error: string | null; nextAttemptAt: Date | null };

interface ClaimedDelivery {
  id: string;
  account_id: string;
  subscription_id: string;
  event: string;
  contact_id: string | null;
  body: StoredWebhookBody;
  attempt: number;
  locked_until: Date;
}

/**
 * Second half of the delivery engine (worker): one attempt of one delivery. The row in
 * `webhooks.deliveries` is the source of truth; a BullMQ job only wakes the attempt up.
 *
 * 1. Claim: the row is leased (`locked_until` = now + `WEBHOOK_LEASE_MS`) only if it is `pending` or
 *    `retrying`, due, and not leased by a live attempt; otherwise nothing happens (duplicate or early job).
 * 2. The subscription's URL and secret are read (deleted meanwhile: the delivery is `failed`), the System
 *    is resolved, the body is signed (`X-Service-Signature: t=…,v1=…`) and POSTed (10 s timeout, SSRF guard
 *    at connect time).
 * 3. Record, in one transaction: the attempt row and the delivery's new state: 2xx → `succeeded`;
 *    target refused by the SSRF guard → `failed` (permanent); otherwise `retrying` with `next_attempt_at`
 *    from the retry schedule, or `failed` after attempt 12.
 *
 * At-least-once: a worker that dies after the POST and before step 3 leaves the row leased; once the
 * lease expires the sweeper schedules the attempt again, so the receiver may see the same
 * `X-Service-Delivery` twice (receivers deduplicate on it).
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger(WebhookDeliveryService.name);

  constructor(
    private readonly transactions: TransactionHost,
    private readonly cipher: SecretCipher,
    private readonly http: WebhookHttpClient,
    private readonly systems: ContactSystemReader,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async attempt(accountId: string, deliveryId: string): Promise<AttemptOutcome> {
    const claimedAt = this.clock.now();
    const leaseUntil = new Date(claimedAt.getTime() + this.config.webhookDelivery.leaseMs);
    const claimed = rowsOf<ClaimedDelivery>(
      await this.transactions.manager.query(
        `UPDATE webhooks.deliveries
            SET locked_until = $3, updated_at = $4
          WHERE account_id = $1 AND id = $2
            AND status IN ('pending', 'retrying')
            AND (next_attempt_at IS NULL OR next_attempt_at <= $4::timestamptz + interval '1 second')
            AND (locked_until IS NULL OR locked_until < $4)
        RETURNING id, account_id, subscription_id, event, contact_id, body, attempt, locked_until`,
        [accountId, deliveryId, leaseUntil, claimedAt],
      ),
    )[0];
    if (!claimed) return { result: 'skipped', reason: await this.whyNotClaimed(accountId, deliveryId, claimedAt) };

    const attempt = claimed.attempt + 1;
    const subscription = (
      await this.transactions.manager.query(`SELECT url, secret_ciphertext FROM webhooks.subscriptions WHERE account_id = $1 AND id = $2`, [
        accountId,
        claimed.subscription_id,
      ])
    )[0] as { url: string; secret_ciphertext: string } | undefined;
    if (!subscription) return this.record(claimed, attempt, { status: null, error: 'subscription_deleted', refused: true, durationMs: 0 });

    const system = claimed.contact_id ? await this.systems.systemOf(accountId, claimed.contact_id) : null;
    const rawBody = JSON.stringify(toPayload(claimed.body, claimed.id, system));
    const signature = webhookSignature(this.cipher.decrypt(subscription.secret_ciphertext), rawBody, Math.floor(this.clock.now().getTime() / 1000));
    const result = await this.http.post(subscription.url, rawBody, {
      'content-type': 'application/json',
      'user-agent': 'Leadflow-Webhooks/1.0',
      'x-service-signature': signature,
      'x-service-event': claimed.event,
      'x-service-delivery': claimed.id,
    });
    return this.record(claimed, attempt, result);
  }

  private async record(
    claimed: ClaimedDelivery,
    attempt: number,
    result: { status: number | null; error: string | null; refused: boolean; durationMs: number },
  ): Promise<AttemptOutcome> {
    const now = this.clock.now();
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const error = ok ? null : (result.error ?? `HTTP ${result.status}`);
    let status: WebhookDeliveryStatus;
    let nextAttemptAt: Date | null = null;
    if (ok) status = 'succeeded';
    else if (result.refused) status = 'failed';
    else {
      const delay = nextRetryDelayMs(attempt, this.config.webhookDelivery.retryBaseMs);
      if (delay === null) status = 'failed';
      else {
        status = 'retrying';
        nextAttemptAt = new Date(now.getTime() + delay);
      }
    }
    await this.transactions.run(async (manager) => {
      await manager.query(
        `INSERT INTO webhooks.delivery_attempts (account_id, delivery_id, attempt, status, response_status, error, duration_ms, next_attempt_at, attempted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [claimed.account_id, claimed.id, attempt, status, result.status, error, result.durationMs, nextAttemptAt, now],
      );
      // Only the lease holder writes the state (a stale attempt whose lease expired keeps its history row only).
      await manager.query(
        `UPDATE webhooks.deliveries
            SET status = $4, attempt = $5, response_status = $6, last_error = $7, next_attempt_at = $8, locked_until = NULL, updated_at = $9
          WHERE account_id = $1 AND id = $2 AND locked_until = $3`,
        [claimed.account_id, claimed.id, claimed.locked_until, status, attempt, result.status, error, nextAttemptAt, now],
      );
    });
    if (!ok) this.logger.warn({ deliveryId: claimed.id, attempt, status, responseStatus: result.status, error }, 'Webhook delivery attempt failed');
    return { result: status, attempt, responseStatus: result.status, error, nextAttemptAt };
  }

  private async whyNotClaimed(accountId: string, deliveryId: string, now: Date): Promise<'not_due' | 'settled' | 'busy' | 'missing'> {
    const row = (
      await this.transactions.manager.query(`SELECT status, next_attempt_at, locked_until FROM webhooks.deliveries WHERE account_id = $1 AND id = $2`, [
        accountId,
        deliveryId,
      ])
    )[0] as { status: string; next_attempt_at: Date | null; locked_until: Date | null } | undefined;
    if (!row) return 'missing';
    if (row.status === 'succeeded' || row.status === 'failed') return 'settled';
    if (row.locked_until && row.locked_until >= now) return 'busy';
    return 'not_due';
  }
}
