import { Injectable } from '@nestjs/common';
import { AccountId, Actor } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { StoredWebhookBody, storedBody, toPayload, WebhookPayload, WebhookSamplesReadModel } from '@leadflow/webhooks-core';

interface SampleRow {
  source: 'sample' | 'activity';
  id: string;
  event: string;
  body: StoredWebhookBody | null;
  contact_id: string | null;
  data: Record<string, unknown> | null;
  actor: Actor | null;
  at: Date;
}

/**
 * {@link WebhookSamplesReadModel}: `webhooks.event_samples` and the catalog entries of
 * `platform.activity_log`, merged newest first in one statement (each side limited first).
 */
@Injectable()
export class TypeOrmWebhookSamplesReadModel extends WebhookSamplesReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async latest(accountId: AccountId, events: readonly string[], limit: number): Promise<WebhookPayload[]> {
    const rows: SampleRow[] = await this.transactions.manager.query(
      `(SELECT 'sample' AS source, event_id::text AS id, event, body, NULL::uuid AS contact_id, NULL::jsonb AS data, NULL::jsonb AS actor, occurred_at AS at
          FROM webhooks.event_samples
         WHERE account_id = $1 AND event = ANY($2::text[])
         ORDER BY occurred_at DESC, event_id DESC LIMIT $3)
       UNION ALL
       (SELECT 'activity', id::text, type, NULL, contact_id, data, actor, created_at
          FROM platform.activity_log
         WHERE account_id = $1 AND type = ANY($2::text[])
         ORDER BY created_at DESC, id DESC LIMIT $3)
       ORDER BY at DESC, id DESC
       LIMIT $3`,
      [accountId, events, limit],
    );
    return rows.map((row) => toPayload(bodyOf(row), row.id, null));
  }
}

function bodyOf(row: SampleRow): StoredWebhookBody {
  if (row.source === 'sample' && row.body) return row.body;
  const data = { ...(row.data ?? {}) };
  if (row.contact_id && data.contact_id === undefined) data.contact_id = row.contact_id;
  return storedBody(row.event, row.at, data, row.actor ?? { type: null, id: null, name: null, via: null });
}
