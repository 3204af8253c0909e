import { Injectable } from '@nestjs/common';
import { Clock, IntegrationEvent, newId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, AccountScopedCache, TransactionHost } from '@leadflow/shared-platform';
import { isWebhookEventName } from '@leadflow/webhooks-contracts';
import { contactIdOf, storedBody } from './webhook-payload';

/** A delivery ready for its first attempt. */
export interface ScheduledDelivery {
  id: string;
  accountId: string;
}

/**
 * First half of the delivery engine (worker): an outbox event of the catalog becomes one
 * `webhooks.deliveries` row per matching subscription of its account (`events` containing its name,
 * or `"*"`), idempotent on (event id, subscription id), plus one `webhooks.event_samples` row (the
 * event is now "recorded for samples" because a subscription listens to it). Both in one transaction.
 * Returns the deliveries still waiting for their first attempt (new ones, or ones of a replayed event),
 * which the caller schedules after the commit. Internal event types are never delivered.
 *
 * The account's subscriptions are read through a per-account cache (topic `config`, 30 s), invalidated
 * after commit when a subscription is created or deleted: an event nobody listens to costs no SQL.
 */
@Injectable()
export class WebhookFanOutService {
  private readonly subscriptionsOf: AccountScopedCache<{ id: string; all_events: boolean; events: string[] }[]>;

  constructor(
    private readonly transactions: TransactionHost,
    private readonly clock: Clock,
    invalidation: AccountCacheInvalidation,
  ) {
    this.subscriptionsOf = new AccountScopedCache(invalidation, { topic: 'config', max: 20_000, ttlMs: 30_000 });
  }

  async fanOut(event: IntegrationEvent): Promise<ScheduledDelivery[]> {
    if (!isWebhookEventName(event.type)) return [];
    const all = await this.subscriptionsOf.get(event.accountId, 'webhook-subscriptions', () =>
      this.transactions.manager.query(`SELECT id, all_events, events FROM webhooks.subscriptions WHERE account_id = $1 ORDER BY created_at, id`, [event.accountId]),
    );
    const subscriptions = all.filter((subscription) => subscription.all_events || (subscription.events ?? []).includes(event.type));
    if (subscriptions.length === 0) return [];
    return this.transactions.run(async (manager) => {
      const body = storedBody(event.type, event.occurredAt, event.payload, event.actor);
      const now = this.clock.now();
      await manager.query(
        `INSERT INTO webhooks.event_samples (event_id, account_id, event, body, occurred_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (event_id) DO NOTHING`,
        [event.id, event.accountId, event.type, { ...body }, event.occurredAt],
      );
      const ids = subscriptions.map(() => newId());
      await manager.query(
        `INSERT INTO webhooks.deliveries (id, account_id, subscription_id, event_id, event, contact_id, body, status, attempt, next_attempt_at, created_at, updated_at)
         SELECT d.id, $1, d.subscription_id, $2, $3, $4, $5, 'pending', 0, $6, $6, $6
           FROM unnest($7::uuid[], $8::uuid[]) AS d (id, subscription_id)
         ON CONFLICT (account_id, event_id, subscription_id) DO NOTHING`,
        [event.accountId, event.id, event.type, safeUuid(contactIdOf(event.payload)), body, now, ids, subscriptions.map((s) => s.id)],
      );
      const waiting: { id: string }[] = await manager.query(
        `SELECT id FROM webhooks.deliveries WHERE account_id = $1 AND event_id = $2 AND status = 'pending' AND attempt = 0`,
        [event.accountId, event.id],
      );
      return waiting.map((row) => ({ id: row.id, accountId: event.accountId }));
    });
  }
}

function safeUuid(value: string | null): string | null {
  return value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) ? value : null;
}
