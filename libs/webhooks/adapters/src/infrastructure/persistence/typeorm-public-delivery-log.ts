import { Injectable } from '@nestjs/common';
import { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import { toPage, TransactionHost } from '@leadflow/shared-platform';
import { DeliveryAttemptView, PublicDeliveryFilter, PublicDeliveryLog, PublicDeliveryStatus, PublicDeliveryView } from '@leadflow/webhooks-core';

/** Internal status → public status (`retrying` is a `failed` attempt with another scheduled; `failed` is `exhausted`). */
const PUBLIC_STATUS: Record<string, PublicDeliveryStatus> = { pending: 'pending', retrying: 'failed', succeeded: 'succeeded', failed: 'exhausted' };
const INTERNAL_STATUS: Record<PublicDeliveryStatus, string> = { pending: 'pending', failed: 'retrying', succeeded: 'succeeded', exhausted: 'failed' };

interface LogRow {
  id: string;
  subscription_id: string;
  event: string;
  status: string;
  attempt: number;
  next_attempt_at: Date | null;
  created_at: Date;
  attempts: { attempt: number; attempted_at: string; response_status: number | null; duration_ms: number; response_body: string | null; error: string | null }[] | null;
}

function toView(row: LogRow): PublicDeliveryView {
  const attempts: DeliveryAttemptView[] = (row.attempts ?? []).map((a) => ({
    attempt: a.attempt,
    attempted_at: new Date(a.attempted_at).toISOString(),
    response_status: a.response_status,
    latency_ms: a.duration_ms,
    response_body: a.response_body,
    error: a.error,
  }));
  return {
    id: row.id,
    webhook_id: row.subscription_id,
    event: row.event,
    status: PUBLIC_STATUS[row.status] ?? 'pending',
    attempt_count: row.attempt,
    next_attempt_at: row.next_attempt_at && (row.status === 'pending' || row.status === 'retrying') ? new Date(row.next_attempt_at).toISOString() : null,
    created_at: new Date(row.created_at).toISOString(),
    attempts,
  };
}

/** The attempts of each delivery row, oldest first, as one JSON array (one statement for the page). */
const WITH_ATTEMPTS = `
  SELECT d.id, d.subscription_id, d.event, d.status, d.attempt, d.next_attempt_at, d.created_at,
         (SELECT json_agg(json_build_object('attempt', a.attempt, 'attempted_at', a.attempted_at, 'response_status', a.response_status,
                                            'duration_ms', a.duration_ms, 'response_body', a.response_body, 'error', a.error)
                          ORDER BY a.attempted_at, a.id)
            FROM webhooks.delivery_attempts a WHERE a.account_id = d.account_id AND a.delivery_id = d.id) AS attempts
    FROM webhooks.deliveries d`;

/**
 * {@link PublicDeliveryLog} on `webhooks.deliveries` (index `(account_id, subscription_id, created_at DESC,
 * id DESC)`) and `webhooks.delivery_attempts`: one statement for the page with its attempts, one for the
 * exact count, in parallel. Every query filters on the account and the subscription.
 */
@Injectable()
export class TypeOrmPublicDeliveryLog extends PublicDeliveryLog {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async list(accountId: AccountId, subscriptionId: string, filter: PublicDeliveryFilter, page: { limit: number; after: KeysetPosition | null }): Promise<Page<PublicDeliveryView>> {
    const params: unknown[] = [accountId, subscriptionId];
    const where = ['d.account_id = $1', 'd.subscription_id = $2'];
    const add = (sql: (n: number) => string, value: unknown) => {
      params.push(value);
      where.push(sql(params.length));
    };
    if (filter.status) add((n) => `d.status = $${n}`, INTERNAL_STATUS[filter.status]);
    if (filter.event) add((n) => `d.event = $${n}`, filter.event);
    if (filter.from) add((n) => `d.created_at >= $${n}`, filter.from);
    if (filter.to) add((n) => `d.created_at <= $${n}`, filter.to);
    const countParams = [...params];
    const countWhere = [...where];
    if (page.after?.id) {
      params.push(page.after.createdAt, page.after.id);
      where.push(`(d.created_at, d.id) < ($${params.length - 1}, $${params.length})`);
    } else if (page.after) add((n) => `d.created_at < $${n}`, page.after.createdAt);
    params.push(page.limit + 1);
    const manager = this.transactions.manager;
    const [rows, [{ total }]] = await Promise.all([
      manager.query(`${WITH_ATTEMPTS} WHERE ${where.join(' AND ')} ORDER BY d.created_at DESC, d.id DESC LIMIT $${params.length}`, params) as Promise<LogRow[]>,
      manager.query(`SELECT count(*)::int AS total FROM webhooks.deliveries d WHERE ${countWhere.join(' AND ')}`, countParams) as Promise<{ total: number }[]>,
    ]);
    return toPage(rows, page, total, toView, (row) => ({ createdAt: new Date(row.created_at), id: row.id }));
  }

  async get(accountId: AccountId, subscriptionId: string, deliveryId: string): Promise<PublicDeliveryView | null> {
    const rows: LogRow[] = await this.transactions.manager.query(`${WITH_ATTEMPTS} WHERE d.account_id = $1 AND d.subscription_id = $2 AND d.id = $3`, [
      accountId,
      subscriptionId,
      deliveryId,
    ]);
    return rows[0] ? toView(rows[0]) : null;
  }
}
