import { Injectable } from '@nestjs/common';
import { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import { toPage, TransactionHost } from '@leadflow/shared-platform';
import type { WebhookDeliveryStatus, WebhookDeliveryView } from '@leadflow/webhooks-contracts';
import { WebhookDeliveriesReadModel } from '@leadflow/webhooks-core';

interface DeliveryRow {
  id: string;
  subscription_id: string;
  event: string;
  status: WebhookDeliveryStatus;
  attempt: number;
  response_status: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

/**
 * {@link WebhookDeliveriesReadModel} on `webhooks.deliveries` (index `deliveries_account_created_idx`):
 * keyset page `(created_at, id) <` the cursor, newest first, plus the exact count, in parallel.
 */
@Injectable()
export class TypeOrmWebhookDeliveriesReadModel extends WebhookDeliveriesReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async listForOperator(accountId: AccountId, page: { limit: number; after: KeysetPosition | null }): Promise<Page<WebhookDeliveryView>> {
    const params: unknown[] = [accountId, page.limit + 1];
    let after = '';
    if (page.after?.id) {
      params.push(page.after.createdAt, page.after.id);
      after = `AND (created_at, id) < ($3, $4)`;
    } else if (page.after) {
      params.push(page.after.createdAt);
      after = `AND created_at < $3`;
    }
    const manager = this.transactions.manager;
    const [rows, [{ total }]] = await Promise.all([
      manager.query(
        `SELECT id, subscription_id, event, status, attempt, response_status, next_attempt_at, created_at
           FROM webhooks.deliveries WHERE account_id = $1 ${after}
          ORDER BY created_at DESC, id DESC LIMIT $2`,
        params,
      ) as Promise<DeliveryRow[]>,
      manager.query(`SELECT count(*)::int AS total FROM webhooks.deliveries WHERE account_id = $1`, [accountId]) as Promise<{ total: number }[]>,
    ]);
    return toPage(
      rows,
      page,
      total,
      (row) => ({
        id: row.id,
        subscription_id: row.subscription_id,
        event: row.event,
        status: row.status,
        attempt: row.attempt,
        response_status: row.response_status,
        next_attempt_at: row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
        created_at: new Date(row.created_at).toISOString(),
      }),
      (row) => ({ createdAt: new Date(row.created_at), id: row.id }),
    );
  }
}
