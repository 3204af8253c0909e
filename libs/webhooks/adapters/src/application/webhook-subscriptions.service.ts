import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Actor, AccountId, Clock, newId, Page, unpaginated, ValidationFailedError } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, ActivityLogWriter, TransactionHost } from '@leadflow/shared-platform';
import {
  InvalidWebhookTargetError,
  MAX_SUBSCRIPTIONS_PER_ACCOUNT,
  readEventSelection,
  SubscriptionLimitReachedError,
  urlViolations,
  WebhookSubscriptionNotFoundError,
} from '@leadflow/webhooks-core';
import { rowsOf } from '../infrastructure/persistence/sql-rows';
import { SecretCipher } from '../infrastructure/crypto/secret-cipher';
import { TargetGuard, TargetRefusedError } from '../infrastructure/http/target-guard';

/** A subscription as `GET /v1/webhooks` shows it (never the secret). `events` is `"*"` for every event. */
export interface WebhookSubscriptionView {
  id: string;
  url: string;
  events: string[] | '*';
  created_at: string;
}

/** The 201 body of `POST /v1/webhooks`: the view plus the secret, in clear this once. */
export interface CreatedWebhookSubscription extends WebhookSubscriptionView {
  secret: string;
}

interface SubscriptionRow {
  id: string;
  url: string;
  all_events: boolean;
  events: string[];
  created_at: Date;
}

function toView(row: SubscriptionRow): WebhookSubscriptionView {
  return { id: row.id, url: row.url, events: row.all_events ? '*' : row.events, created_at: new Date(row.created_at).toISOString() };
}

/**
 * Webhook subscriptions (public-api-v1 › Endpoints › Webhooks; Authentication 7; Limits). A
 * subscription belongs to the account AND the API key that created it: other keys of the account
 * neither list nor delete it (404 `not_found`, like another account's).
 */
@Injectable()
export class WebhookSubscriptionsService {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly cipher: SecretCipher,
    private readonly guard: TargetGuard,
    private readonly activity: ActivityLogWriter,
    private readonly clock: Clock,
    private readonly invalidation: AccountCacheInvalidation,
  ) {}

  /**
   * Creates a subscription. Rules, in order: `url` (400 `validation_error` reasons `required`,
   * `invalid_format`, `https_required`) and `events` (`required`, `invalid_value`, `unknown_event_type`
   * on `events[i]`), reported together; then the SSRF guard on `url` (400 `validation_error`
   * `non_public_target` or `unresolvable_host`); then, under a per-account lock (concurrent creations
   * are serialised), the cap of 10 per account across keys (429 `subscription_limit_reached`).
   * The secret is 32 random bytes as 64 lowercase hex characters, stored AES-256-GCM encrypted.
   */
  async create(accountId: AccountId, apiKeyId: string, actor: Actor, input: { url: unknown; events: unknown }): Promise<CreatedWebhookSubscription> {
    const { selection, violations: eventViolations } = readEventSelection(input.events);
    const violations = [...urlViolations(input.url), ...eventViolations];
    if (violations.length > 0 || !selection) throw new ValidationFailedError(violations);
    const url = input.url as string;
    try {
      await this.guard.check(new URL(url).hostname);
    } catch (error) {
      if (error instanceof TargetRefusedError) throw new InvalidWebhookTargetError(error.reason, error.message);
      throw error;
    }
    const secret = randomBytes(32).toString('hex');
    const row: SubscriptionRow = {
      id: newId(),
      url,
      all_events: selection.all,
      events: selection.all ? [] : selection.events,
      created_at: this.clock.now(),
    };
    await this.transactions.run(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks.subscriptions:' || $1::text, 0))`, [accountId]);
      const [{ count }] = await manager.query(`SELECT count(*)::int AS count FROM webhooks.subscriptions WHERE account_id = $1`, [accountId]);
      if (count >= MAX_SUBSCRIPTIONS_PER_ACCOUNT) throw new SubscriptionLimitReachedError();
      await this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId)); // the fan-out's cache
      await manager.query(
        `INSERT INTO webhooks.subscriptions (id, account_id, api_key_id, url, all_events, events, secret_ciphertext, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [row.id, accountId, apiKeyId, row.url, row.all_events, row.events, this.cipher.encrypt(secret), row.created_at],
      );
      await this.activity.record(accountId, [
        { contactId: null, type: 'webhook_subscription_created', actor, data: { subscription_id: row.id, url: row.url }, at: row.created_at },
      ]);
    });
    return { ...toView(row), secret };
  }

  /** The calling key's subscriptions, newest first; not paginated (the list holds at most 10). */
  async list(accountId: AccountId, apiKeyId: string): Promise<Page<WebhookSubscriptionView>> {
    const rows: SubscriptionRow[] = await this.transactions.manager.query(
      `SELECT id, url, all_events, events, created_at FROM webhooks.subscriptions
        WHERE account_id = $1 AND api_key_id = $2 ORDER BY created_at DESC, id DESC`,
      [accountId, apiKeyId],
    );
    return unpaginated(rows.map(toView));
  }

  /**
   * Deletes the subscription for good (404 `not_found` unless it is the account's and the calling
   * key's). Its deliveries still waiting are marked `failed` (`subscription_deleted`); past ones stay
   * visible to the operator.
   */
  async delete(accountId: AccountId, apiKeyId: string, actor: Actor, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const deleted = rowsOf<{ id: string; url: string }>(
        await manager.query(
        `DELETE FROM webhooks.subscriptions WHERE account_id = $1 AND api_key_id = $2 AND id = $3 RETURNING id, url`,
          [accountId, apiKeyId, id],
        ),
      );
      if (deleted.length === 0) throw new WebhookSubscriptionNotFoundError();
      await this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId)); // the fan-out's cache
      const now = this.clock.now();
      await manager.query(
        `UPDATE webhooks.deliveries SET status = 'failed', last_error = 'subscription_deleted', next_attempt_at = NULL, updated_at = $3
          WHERE account_id = $1 AND subscription_id = $2 AND status IN ('pending', 'retrying')`,
        [accountId, id, now],
      );
      await this.activity.record(accountId, [
        { contactId: null, type: 'webhook_subscription_deleted', actor, data: { subscription_id: id, url: deleted[0].url }, at: now },
      ]);
    });
  }
}
