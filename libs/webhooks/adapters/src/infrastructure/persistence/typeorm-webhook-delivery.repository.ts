import { Inject, Injectable, Optional } from '@nestjs/common';
import { AccountId, asAccountId } from '@leadflow/shared-kernel';
import { TransactionHost, WorkerIdentity } from '@leadflow/shared-platform';
import {
  ClaimedDelivery,
  ClaimRefusal,
  DeliveryToSchedule,
  OverdueDelivery,
  RecordedAttempt,
  StoredWebhookBody,
  WebhookDeliveryRepository,
} from '@leadflow/webhooks-core';
import { rowsOf } from './sql-rows';

interface ClaimRow {
  id: string;
  account_id: string;
  subscription_id: string;
  event: string;
  contact_id: string | null;
  body: StoredWebhookBody;
  attempt: number;
  locked_until: Date | null;
  next_attempt_at: Date | null;
  claimed: boolean;
  status: string | null;
  /** Not claimed because neither the row nor the event's sample holds the body. */
  orphaned: boolean;
  url: string | null;
  secret_ciphertext: string | null;
  previous_secret_ciphertext: string | null;
  disabled_reason: string | null;
  failing_since: Date | null;
}

/**
 * {@link WebhookDeliveryRepository} on `webhooks.deliveries` and `webhooks.delivery_attempts`. Each
 * method is ONE statement (data-modifying CTEs), so it is atomic without a transaction of its own and an
 * attempt costs three round trips (claim, System lookup when the event names a contact, record) instead
 * of seven: the claim reads the subscription in the same statement, the record writes the attempt row
 * and the delivery's state in the same statement.
 *
 * The event's body is stored once, in `webhooks.event_samples` (by `createForEvent`, with the deliveries),
 * and the claim reads it from there: a delivery row is rewritten by every claim and every recorded attempt,
 * and without the body each new row version is ~300 bytes of table and WAL instead of ~2 KB (rows written
 * before migration 1799100000000 keep their own copy, which the claim prefers).
 */
@Injectable()
export class TypeOrmWebhookDeliveryRepository extends WebhookDeliveryRepository {
  constructor(
    private readonly transactions: TransactionHost,
    /**
     * The worker whose attempts lease rows (`locked_by`); absent outside the worker (no holder named). The
     * token is explicit: decorator metadata records `WorkerIdentity | null` as `Object`, and nothing was injected.
     */
    @Optional() @Inject(WorkerIdentity) private readonly worker: WorkerIdentity | null = null,
  ) {
    super();
  }

  async createForEvent(input: Parameters<WebhookDeliveryRepository['createForEvent']>[0]): Promise<DeliveryToSchedule[]> {
    // A CTE's SELECT does not see the rows its sibling INSERT adds: new ones come from `created`, those
    // of a replayed event (already there, still waiting for their first attempt) from the table.
    const rows: { id: string }[] = await this.transactions.manager.query(
      `WITH sample AS (
         INSERT INTO webhooks.event_samples (event_id, account_id, event, body, occurred_at) VALUES ($2, $1, $3, $5, $6)
         ON CONFLICT (account_id, event_id) DO NOTHING
       ), created AS (
         INSERT INTO webhooks.deliveries (id, account_id, subscription_id, event_id, event, contact_id, status, attempt, next_attempt_at, created_at, updated_at)
         SELECT d.id, $1, d.subscription_id, $2, $3, $4, 'pending', 0, $7, $7, $7
           FROM unnest($8::uuid[], $9::uuid[]) AS d (id, subscription_id)
         ON CONFLICT (account_id, event_id, subscription_id) DO NOTHING
         RETURNING id
       )
       SELECT id FROM created
       UNION
       SELECT id FROM webhooks.deliveries WHERE account_id = $1 AND event_id = $2 AND status = 'pending' AND attempt = 0`,
      [
        input.accountId,
        input.eventId,
        input.event,
        input.contactId,
        input.body,
        input.occurredAt,
        input.now,
        input.subscriptionIds.map((s) => s.deliveryId),
        input.subscriptionIds.map((s) => s.subscriptionId),
      ],
    );
    return rows.map((row) => ({ id: row.id, accountId: input.accountId, attemptsMade: 0 }));
  }

  async claim(accountId: AccountId, deliveryId: string, leaseUntil: Date, now: Date): Promise<ClaimedDelivery | ClaimRefusal> {
    const [row] = (await this.transactions.manager.query(
      `WITH claimed AS (
         UPDATE webhooks.deliveries d
            SET locked_until = $3, locked_by = $5, updated_at = $4
          WHERE d.account_id = $1 AND d.id = $2
            AND d.status IN ('pending', 'retrying')
            AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= $4::timestamptz + interval '1 second')
            AND (d.locked_until IS NULL OR d.locked_until < $4)
            AND (d.body IS NOT NULL OR EXISTS (SELECT 1 FROM webhooks.event_samples e WHERE e.account_id = d.account_id AND e.event_id = d.event_id))
        RETURNING d.id, d.account_id, d.subscription_id, d.event_id, d.event, d.contact_id, d.body, d.attempt, d.locked_until, d.next_attempt_at
       )
       SELECT c.id, c.account_id, c.subscription_id, c.event, c.contact_id, COALESCE(c.body, e.body) AS body, c.attempt, c.locked_until, c.next_attempt_at,
              true AS claimed, NULL AS status, false AS orphaned, s.url, s.secret_ciphertext,
              CASE WHEN s.previous_secret_expires_at > $4 THEN s.previous_secret_ciphertext END AS previous_secret_ciphertext,
              s.disabled_reason, s.failing_since
         FROM claimed c
         LEFT JOIN webhooks.event_samples e ON c.body IS NULL AND e.account_id = c.account_id AND e.event_id = c.event_id
         LEFT JOIN webhooks.subscriptions s ON s.account_id = c.account_id AND s.id = c.subscription_id
       UNION ALL
       SELECT d.id, d.account_id, d.subscription_id, d.event, d.contact_id, NULL, d.attempt, d.locked_until, d.next_attempt_at, false, d.status,
              d.body IS NULL AND NOT EXISTS (SELECT 1 FROM webhooks.event_samples e WHERE e.account_id = d.account_id AND e.event_id = d.event_id), NULL, NULL, NULL, NULL, NULL
         FROM webhooks.deliveries d
        WHERE d.account_id = $1 AND d.id = $2 AND NOT EXISTS (SELECT 1 FROM claimed)`,
      [accountId, deliveryId, leaseUntil, now, this.worker?.id ?? null],
    )) as ClaimRow[];
    // a delivery whose event body is gone (its sample deleted outside the sandbox reset, which deletes both) has nothing to send
    if (!row || row.orphaned) return 'missing';
    if (!row.claimed) {
      if (row.status === 'succeeded' || row.status === 'failed') return 'settled';
      if (row.locked_until && new Date(row.locked_until) >= now) return 'busy';
      // The row is read from the statement's snapshot: claimable there but not claimed means a concurrent claim took it.
      if (!row.next_attempt_at || new Date(row.next_attempt_at).getTime() <= now.getTime() + 1000) return 'busy';
      return 'not_due';
    }
    return {
      id: row.id,
      accountId: asAccountId(row.account_id),
      subscriptionId: row.subscription_id,
      event: row.event,
      contactId: row.contact_id,
      body: row.body,
      attemptsMade: row.attempt,
      lockedUntil: new Date(row.locked_until as Date),
      subscription:
        row.url && row.secret_ciphertext
          ? {
              url: row.url,
              secretCiphertext: row.secret_ciphertext,
              previousSecretCiphertext: row.previous_secret_ciphertext,
              disabledReason: row.disabled_reason,
              failingSince: row.failing_since ? new Date(row.failing_since) : null,
            }
          : null,
    };
  }

  /**
   * One statement: the attempt row (with the first 1 KiB of the answer), the delivery's state (only for
   * the lease holder) and the subscription's failing streak (`failing_since` set at the first failure
   * after a success, cleared by a success; the row is written only when it changes). An attempt that
   * never reached the receiver because of the subscription (deleted, disabled) leaves the streak alone.
   */
  async recordAttempt(claimed: ClaimedDelivery, { attempt, answer, decision, at }: RecordedAttempt): Promise<void> {
    const streak = decision.status === 'succeeded' ? 'success' : claimed.subscription && !claimed.subscription.disabledReason ? 'failure' : 'none';
    await this.transactions.manager.query(
      `WITH attempt_row AS (
         INSERT INTO webhooks.delivery_attempts (account_id, delivery_id, attempt, status, response_status, error, duration_ms, next_attempt_at, attempted_at, response_body)
         VALUES ($1, $2, $5, $4, $6, $7, $10, $8, $9, $11)
       ), streak AS (
         UPDATE webhooks.subscriptions
            SET failing_since = CASE WHEN $13 = 'success' THEN NULL ELSE $9 END
          WHERE account_id = $1 AND id = $12
            AND (($13 = 'success' AND failing_since IS NOT NULL) OR ($13 = 'failure' AND failing_since IS NULL))
       )
       UPDATE webhooks.deliveries
          SET status = $4, attempt = $5, response_status = $6, last_error = $7, next_attempt_at = $8, locked_until = NULL, locked_by = NULL, updated_at = $9
        WHERE account_id = $1 AND id = $2 AND locked_until = $3`,
      [
        claimed.accountId,
        claimed.id,
        claimed.lockedUntil,
        decision.status,
        attempt,
        answer.status,
        decision.error,
        decision.nextAttemptAt,
        at,
        answer.durationMs,
        answer.body ?? null,
        claimed.subscriptionId,
        streak,
      ],
    );
  }

  async prepareRedelivery(accountId: AccountId, deliveryId: string, subscriptionId: string | null, jobId: string, now: Date): Promise<{ subscriptionId: string; attemptsMade: number } | null> {
    const rows = rowsOf<{ subscription_id: string; attempt: number }>(
      await this.transactions.manager.query(
        `UPDATE webhooks.deliveries
            SET status = CASE WHEN attempt = 0 THEN 'pending' ELSE 'retrying' END, next_attempt_at = $4, job_id = $5, updated_at = $4
          WHERE account_id = $1 AND id = $2 AND ($3::uuid IS NULL OR subscription_id = $3::uuid)
        RETURNING subscription_id, attempt`,
        [accountId, deliveryId, subscriptionId, now, jobId],
      ),
    );
    return rows[0] ? { subscriptionId: rows[0].subscription_id, attemptsMade: rows[0].attempt } : null;
  }

  async failWaiting(accountId: AccountId, subscriptionId: string, reason: string, now: Date): Promise<void> {
    await this.transactions.manager.query(
      `UPDATE webhooks.deliveries SET status = 'failed', last_error = $3, next_attempt_at = NULL, updated_at = $4
        WHERE account_id = $1 AND subscription_id = $2 AND status IN ('pending', 'retrying')`,
      [accountId, subscriptionId, reason, now],
    );
  }

  async overdue(dueBefore: Date, now: Date, limit: number): Promise<OverdueDelivery[]> {
    const rows: { id: string; account_id: string; attempt: number; job_id: string | null }[] = await this.transactions.manager.query(
      `SELECT id, account_id, attempt, job_id FROM webhooks.deliveries
        WHERE status IN ('pending', 'retrying') AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until < $2)
        ORDER BY next_attempt_at LIMIT $3`,
      [dueBefore, now, limit],
    );
    return rows.map((row) => ({ id: row.id, accountId: asAccountId(row.account_id), attemptsMade: row.attempt, jobId: row.job_id ?? row.id }));
  }

  async releaseLeasesOf(workerIds: readonly string[], now: Date): Promise<OverdueDelivery[]> {
    if (workerIds.length === 0) return [];
    const rows = rowsOf<{ id: string; account_id: string; attempt: number; job_id: string | null }>(
      await this.transactions.manager.query(
        `UPDATE webhooks.deliveries SET locked_until = NULL, locked_by = NULL, updated_at = $2
          WHERE status IN ('pending', 'retrying') AND locked_by = ANY($1::uuid[])
        RETURNING id, account_id, attempt, job_id`,
        [workerIds, now],
      ),
    );
    return rows.map((row) => ({ id: row.id, accountId: asAccountId(row.account_id), attemptsMade: row.attempt, jobId: row.job_id ?? row.id }));
  }

  async assignJobs(assignments: { accountId: AccountId; deliveryId: string; jobId: string }[]): Promise<void> {
    if (assignments.length === 0) return;
    await this.transactions.manager.query(
      `UPDATE webhooks.deliveries d SET job_id = a.job_id
         FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS a (account_id, id, job_id)
        WHERE d.account_id = a.account_id AND d.id = a.id`,
      [assignments.map((a) => a.accountId), assignments.map((a) => a.deliveryId), assignments.map((a) => a.jobId)],
    );
  }
}
