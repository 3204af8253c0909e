import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AccountId, Clock } from '@leadflow/shared-kernel';
import { AppConfig } from '../../config/app-config';

/** Idempotency keys live 24 hours (public-api-v1 › Limits). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export type IdempotencyClaim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; status: number; body: unknown; createdAt: Date }
  | { outcome: 'conflict'; reason: 'payload_mismatch' | 'in_progress' };

/**
 * PostgreSQL-backed Idempotency-Key store. `claim` inserts a `processing` row or reports what an
 * earlier request with the same key did; `complete` stores a success for replay; `release` forgets a
 * rejected request so the key stays usable (rejections are not stored).
 *
 * A `processing` row holds a lease of `IDEMPOTENCY_LEASE_MS` (default 60 000 ms, longer than any request):
 * while it runs, the same key answers 409 `idempotency_conflict` (`in_progress`); once it has run out
 * without `complete` or `release` (the process died, PostgreSQL restarted, the release itself failed),
 * the next request with the key takes it over and runs (issue 12, item 1: a crash never strands a key).
 * A request that had committed its write but crashed before `complete` may then run twice; the
 * operations' own rules (lead capture's 5-minute replay window, duplicate checks) absorb that.
 *
 * `complete` and `release` that fail while the process lives (PostgreSQL restarting between the write's
 * commit and the key's update) are retried in the background, 100 ms doubling to 2 s, until they
 * succeed or the lease runs out, so a restart of a few seconds leaves no key `processing` and a retry
 * gets the stored response instead of running the request again (issue 12: the fault suite). The first
 * failure is still thrown, for the caller to log.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async claim(accountId: AccountId, key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    const leaseExpiresAt = new Date(now.getTime() + this.config.idempotencyLeaseMs);
    // An expired row, or a `processing` one whose lease ran out, is replaced in place; a live one is left
    // untouched and read back.
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO platform.idempotency_keys (account_id, key, fingerprint, state, created_at, expires_at, lease_expires_at)
       VALUES ($1, $2, $3, 'processing', $4, $5, $6)
       ON CONFLICT (account_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, state = 'processing', response_status = NULL,
             response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
             lease_expires_at = EXCLUDED.lease_expires_at
         WHERE platform.idempotency_keys.expires_at <= $4
            OR (platform.idempotency_keys.state = 'processing' AND platform.idempotency_keys.lease_expires_at <= $4)
       RETURNING key`,
      [accountId, key, fingerprint, now, expiresAt, leaseExpiresAt],
    );
    if (inserted.length > 0) return { outcome: 'claimed' };
    const rows: { fingerprint: string; state: string; response_status: number | null; response_body: unknown; created_at: Date }[] =
      await this.db.query(
        `SELECT fingerprint, state, response_status, response_body, created_at
           FROM platform.idempotency_keys WHERE account_id = $1 AND key = $2`,
        [accountId, key],
      );
    const row = rows[0];
    if (!row) return this.claim(accountId, key, fingerprint); // released meanwhile: try again
    if (row.fingerprint !== fingerprint) return { outcome: 'conflict', reason: 'payload_mismatch' };
    if (row.state !== 'completed') return { outcome: 'conflict', reason: 'in_progress' };
    const stored = row.response_body;
    const body = typeof stored === 'string' ? JSON.parse(stored) : stored;
    return { outcome: 'replay', status: row.response_status ?? 200, body, createdAt: row.created_at };
  }

  /**
   * Stores the response for replay. The body is kept as its JSON text (a jsonb string): a jsonb object
   * would reorder the members, and a replay must send the same body as the original.
   */
  /** Stores the success of the request holding the key (see the class for what happens when PostgreSQL fails). */
  async complete(accountId: AccountId, key: string, status: number, body: unknown): Promise<void> {
    const response = JSON.stringify(JSON.stringify(body ?? null));
    await this.persistently(() =>
      this.db.query(
        `UPDATE platform.idempotency_keys SET state = 'completed', response_status = $3, response_body = $4, lease_expires_at = NULL
          WHERE account_id = $1 AND key = $2 AND state = 'processing'`,
        [accountId, key, status, response],
      ),
    );
  }

  /** Forgets the key of a rejected request, so it stays usable (retried like `complete`). */
  async release(accountId: AccountId, key: string): Promise<void> {
    await this.persistently(() =>
      this.db.query(`DELETE FROM platform.idempotency_keys WHERE account_id = $1 AND key = $2 AND state = 'processing'`, [accountId, key]),
    );
  }

  /** Runs `write`; if it fails, throws and keeps retrying it in the background until it succeeds or the lease ends. */
  private async persistently(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      const deadline = Date.now() + this.config.idempotencyLeaseMs;
      const retry = (delayMs: number) => {
        if (Date.now() + delayMs > deadline) return;
        setTimeout(() => {
          write().catch(() => retry(Math.min(delayMs * 2, 2000)));
        }, delayMs).unref();
      };
      retry(100);
      throw error;
    }
  }

  /** Deletes expired keys; returns how many (run by the worker). */
  async purgeExpired(): Promise<number> {
    const result: [unknown[], number] = await this.db.query(`DELETE FROM platform.idempotency_keys WHERE expires_at <= $1`, [
      this.clock.now(),
    ]);
    return result[1] ?? 0;
  }
}
