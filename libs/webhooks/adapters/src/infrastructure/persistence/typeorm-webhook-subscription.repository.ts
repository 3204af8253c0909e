import { Injectable } from '@nestjs/common';
import { AccountId, asAccountId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, AccountScopedCache, TransactionHost } from '@leadflow/shared-platform';
import { ListeningSubscription, WebhookSubscriptionRecord, WebhookSubscriptionRepository } from '@leadflow/webhooks-core';
import type { WebhookEventName } from '@leadflow/webhooks-contracts';
import { rowsOf } from './sql-rows';

interface SubscriptionRow {
  id: string;
  account_id: string;
  api_key_id: string;
  url: string;
  all_events: boolean;
  events: string[];
  secret_ciphertext: string;
  created_at: Date;
  disabled_reason: string | null;
  disabled_at: Date | null;
}

const COLUMNS = `id, account_id, api_key_id, url, all_events, events, secret_ciphertext, created_at, disabled_reason, disabled_at`;

function toRecord(row: SubscriptionRow): WebhookSubscriptionRecord {
  return {
    id: row.id,
    accountId: asAccountId(row.account_id),
    apiKeyId: row.api_key_id,
    url: row.url,
    selection: row.all_events ? { all: true } : { all: false, events: row.events as WebhookEventName[] },
    secretCiphertext: row.secret_ciphertext,
    createdAt: new Date(row.created_at),
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at ? new Date(row.disabled_at) : null,
  };
}

/**
 * {@link WebhookSubscriptionRepository} on `webhooks.subscriptions` (raw SQL through the current
 * transaction). `listening` goes through a per-account cache (topic `config`, 30 s, 20 000 accounts)
 * invalidated after the commit of every creation or deletion, so an event nobody listens to costs no SQL.
 */
@Injectable()
export class TypeOrmWebhookSubscriptionRepository extends WebhookSubscriptionRepository {
  private readonly listeningCache: AccountScopedCache<ListeningSubscription[]>;

  constructor(
    private readonly transactions: TransactionHost,
    private readonly invalidation: AccountCacheInvalidation,
  ) {
    super();
    this.listeningCache = new AccountScopedCache(invalidation, { topic: 'config', max: 20_000, ttlMs: 30_000 });
  }

  async lockAndCount(accountId: AccountId): Promise<number> {
    const manager = this.transactions.manager;
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks.subscriptions:' || $1::text, 0))`, [accountId]);
    const [{ count }] = await manager.query(`SELECT count(*)::int AS count FROM webhooks.subscriptions WHERE account_id = $1`, [accountId]);
    return count;
  }

  async insert(s: WebhookSubscriptionRecord): Promise<void> {
    await this.transactions.afterCommit(() => this.invalidation.invalidate('config', s.accountId));
    await this.transactions.manager.query(
      `INSERT INTO webhooks.subscriptions (id, account_id, api_key_id, url, all_events, events, secret_ciphertext, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [s.id, s.accountId, s.apiKeyId, s.url, s.selection.all, s.selection.all ? [] : s.selection.events, s.secretCiphertext, s.createdAt],
    );
  }

  async listByKey(accountId: AccountId, apiKeyId: string | null): Promise<WebhookSubscriptionRecord[]> {
    const rows: SubscriptionRow[] = await this.transactions.manager.query(
      apiKeyId === null
        ? `SELECT ${COLUMNS} FROM webhooks.subscriptions WHERE account_id = $1 ORDER BY created_at DESC, id DESC`
        : `SELECT ${COLUMNS} FROM webhooks.subscriptions WHERE account_id = $1 AND api_key_id = $2 ORDER BY created_at DESC, id DESC`,
      apiKeyId === null ? [accountId] : [accountId, apiKeyId],
    );
    return rows.map(toRecord);
  }

  async deleteOwned(accountId: AccountId, apiKeyId: string, id: string): Promise<{ url: string } | null> {
    const deleted = rowsOf<{ url: string }>(
      await this.transactions.manager.query(`DELETE FROM webhooks.subscriptions WHERE account_id = $1 AND api_key_id = $2 AND id = $3 RETURNING url`, [
        accountId,
        apiKeyId,
        id,
      ]),
    );
    if (deleted.length === 0) return null;
    await this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId));
    return { url: deleted[0].url };
  }

  async findOwned(accountId: AccountId, apiKeyId: string, id: string): Promise<WebhookSubscriptionRecord | null> {
    const rows: SubscriptionRow[] = await this.transactions.manager.query(
      `SELECT ${COLUMNS} FROM webhooks.subscriptions WHERE account_id = $1 AND api_key_id = $2 AND id = $3`,
      [accountId, apiKeyId, id],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async rotateSecret(accountId: AccountId, apiKeyId: string, id: string, secretCiphertext: string, previousExpiresAt: Date): Promise<WebhookSubscriptionRecord | null> {
    const rows = rowsOf<SubscriptionRow>(
      await this.transactions.manager.query(
        `UPDATE webhooks.subscriptions
            SET previous_secret_ciphertext = secret_ciphertext, previous_secret_expires_at = $5, secret_ciphertext = $4
          WHERE account_id = $1 AND api_key_id = $2 AND id = $3
        RETURNING ${COLUMNS}`,
        [accountId, apiKeyId, id, secretCiphertext, previousExpiresAt],
      ),
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async eraseExpiredPreviousSecrets(now: Date): Promise<number> {
    const rows = rowsOf<{ id: string }>(
      await this.transactions.manager.query(
        `UPDATE webhooks.subscriptions SET previous_secret_ciphertext = NULL, previous_secret_expires_at = NULL
          WHERE previous_secret_expires_at IS NOT NULL AND previous_secret_expires_at <= $1 RETURNING id`,
        [now],
      ),
    );
    return rows.length;
  }

  async disable(accountId: AccountId, id: string, reason: string, now: Date): Promise<{ url: string } | null> {
    const rows = rowsOf<{ url: string }>(
      await this.transactions.manager.query(
        `UPDATE webhooks.subscriptions SET disabled_at = $4, disabled_reason = $3
          WHERE account_id = $1 AND id = $2 AND disabled_at IS NULL RETURNING url`,
        [accountId, id, reason, now],
      ),
    );
    if (rows.length === 0) return null;
    await this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId));
    return { url: rows[0].url };
  }

  listening(accountId: AccountId): Promise<ListeningSubscription[]> {
    return this.listeningCache.get(accountId, 'webhook-subscriptions', async () => {
      const rows: { id: string; all_events: boolean; events: string[] | null }[] = await this.transactions.manager.query(
        `SELECT id, all_events, events FROM webhooks.subscriptions WHERE account_id = $1 AND disabled_at IS NULL ORDER BY created_at, id`,
        [accountId],
      );
      return rows.map((row) => ({ id: row.id, allEvents: row.all_events, events: row.events ?? [] }));
    });
  }
}
