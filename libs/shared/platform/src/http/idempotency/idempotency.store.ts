import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig } from '../../config/app-config';
import { SecretCipher } from '../../crypto/secret-cipher';

/** Idempotency keys live 24 hours (public-api-v1 › Limits). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Expired rows deleted per statement by {@link IdempotencyStore.purgeExpired} (short transactions). */
const PURGE_BATCH = 5000;

/**
 * Who a key belongs to: the account id of the calling API key (`/v1`), or the operator token's scope
 * (`operatorIdempotencyScope`, `/admin/v1`); a UUID either way, never the same for the two.
 */
export type IdempotencyScope = string;

export type IdempotencyClaim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; status: number; body: unknown; createdAt: Date }
  | { outcome: 'conflict'; reason: 'payload_mismatch' | 'in_progress' | 'replay_unavailable' };

/**
 * PostgreSQL-backed Idempotency-Key store (`platform.idempotency_keys`, primary key `(account_id, key)`
 * where `account_id` holds the {@link IdempotencyScope}). `claim` inserts a `processing` row or reports
 * what an earlier request with the same key did; `complete` stores a success for replay; `release`
 * forgets a rejected request so the key stays usable (rejections are not stored).
 *
 * Stored responses are encrypted at rest with {@link SecretCipher} (`SECRET_ENCRYPTION_KEY`, the webhook
 * secrets' key): some carry a secret in clear (a webhook subscription's `secret`, an operator-issued API
 * key). `response_body` is a jsonb string `v1.<iv>.<tag>.<ciphertext>`; a row stored before encryption
 * (a jsonb string holding the JSON text, never starting with `v1.`) still replays. A row is hidden once
 * `expires_at` (24 hours) has passed and erased by {@link purgeExpired} (the worker's
 * IdempotencyKeyPurger), so no replay outlives its key.
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
    private readonly cipher: SecretCipher,
  ) {}

  /**
   * Takes `key` in `scope` for the request whose `fingerprint` (sha256 of method, URL and canonical body)
   * is given, or reports the live row: `replay` (same fingerprint, completed: the decrypted status and
   * body), `conflict` (`payload_mismatch`: another fingerprint; `in_progress`: still leased;
   * `replay_unavailable`: the request completed but its stored response no longer decrypts, because
   * `SECRET_ENCRYPTION_KEY` changed within its 24 hours: the work is done and is never run again).
   */
  async claim(scope: IdempotencyScope, key: string, fingerprint: string): Promise<IdempotencyClaim> {
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
      [scope, key, fingerprint, now, expiresAt, leaseExpiresAt],
    );
    if (inserted.length > 0) return { outcome: 'claimed' };
    const rows: { fingerprint: string; state: string; response_status: number | null; response_body: unknown; created_at: Date }[] =
      await this.db.query(
        `SELECT fingerprint, state, response_status, response_body, created_at
           FROM platform.idempotency_keys WHERE account_id = $1 AND key = $2`,
        [scope, key],
      );
    const row = rows[0];
    if (!row) return this.claim(scope, key, fingerprint); // released meanwhile: try again
    if (row.fingerprint !== fingerprint) return { outcome: 'conflict', reason: 'payload_mismatch' };
    if (row.state !== 'completed') return { outcome: 'conflict', reason: 'in_progress' };
    let body: unknown;
    try {
      body = this.open(row.response_body);
    } catch {
      return { outcome: 'conflict', reason: 'replay_unavailable' };
    }
    return { outcome: 'replay', status: row.response_status ?? 200, body, createdAt: row.created_at };
  }

  /**
   * Stores the success of the request holding the key for replay (see the class for what happens when
   * PostgreSQL fails). The body is kept as its JSON text, encrypted (a jsonb string): a jsonb object would
   * reorder the members, and a replay must send the same body as the original.
   */
  async complete(scope: IdempotencyScope, key: string, status: number, body: unknown): Promise<void> {
    const response = JSON.stringify(this.cipher.encrypt(JSON.stringify(body ?? null)));
    await this.persistently(() =>
      this.db.query(
        `UPDATE platform.idempotency_keys SET state = 'completed', response_status = $3, response_body = $4, lease_expires_at = NULL
          WHERE account_id = $1 AND key = $2 AND state = 'processing'`,
        [scope, key, status, response],
      ),
    );
  }

  /** Forgets the key of a rejected request, so it stays usable (retried like `complete`). */
  async release(scope: IdempotencyScope, key: string): Promise<void> {
    await this.persistently(() =>
      this.db.query(`DELETE FROM platform.idempotency_keys WHERE account_id = $1 AND key = $2 AND state = 'processing'`, [scope, key]),
    );
  }

  /** The stored `response_body` as the body to replay: decrypted, or (a row stored before encryption) parsed as is. */
  private open(stored: unknown): unknown {
    if (typeof stored !== 'string') return stored;
    return JSON.parse(stored.startsWith('v1.') ? this.cipher.decrypt(stored) : stored);
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

  /**
   * Erases every key whose 24 hours have passed (`expires_at <= now`), stored replay included, in
   * statements of at most 5 000 rows (index `idempotency_keys_expires_idx`); returns how many rows were
   * deleted. Run by the worker's IdempotencyKeyPurger.
   */
  async purgeExpired(): Promise<number> {
    const now = this.clock.now();
    let deleted = 0;
    for (;;) {
      const result: [unknown[], number] = await this.db.query(
        `DELETE FROM platform.idempotency_keys WHERE ctid = ANY (ARRAY(
           SELECT ctid FROM platform.idempotency_keys WHERE expires_at <= $1 LIMIT ${PURGE_BATCH}))`,
        [now],
      );
      const count = result[1] ?? 0;
      deleted += count;
      if (count < PURGE_BATCH) return deleted;
    }
  }
}
