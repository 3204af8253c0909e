import { Injectable } from '@nestjs/common';
import { AccountId, Actor, Page, unpaginated, ValidationFailedError } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { isWebhookEventName, WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import { StoredWebhookBody, storedBody, toPayload, WebhookPayload } from './webhook-payload';

/** `limit` of the sample feed (public-api-v1 › Limits): 1 to 25, default 10. */
export const SAMPLES_DEFAULT_LIMIT = 10;
export const SAMPLES_MAX_LIMIT = 25;

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
 * `GET /v1/webhook-events` (public-api-v1 › Endpoints › Webhooks; Events › Outbound webhooks): the
 * latest deliverable events, newest first, from two sources merged in SQL: the events recorded when a
 * subscription listened to them (`webhooks.event_samples`, written by the delivery fan-out) and the
 * activity log entries whose type is a catalog name. Each in the delivery payload shape, `id` = the
 * source event id (outbox event or activity entry), `data.system` null. Works without any subscription
 * (the activity log part). Not paginated.
 */
@Injectable()
export class WebhookSamplesService {
  constructor(private readonly transactions: TransactionHost) {}

  /**
   * Reads `event` (a catalog name, else 400 `validation_error` `[{ field: 'event', reason: 'unknown_event_type' }]`)
   * and `limit` (integer 1–25, default 10, else 400 `validation_error` `[{ field: 'limit', reason: 'invalid_value' }]`).
   */
  readQuery(query: Record<string, unknown>): { event: string | null; limit: number } {
    const violations = [];
    let event: string | null = null;
    if (query.event !== undefined) {
      if (!isWebhookEventName(query.event)) {
        violations.push({ field: 'event', reason: 'unknown_event_type', message: `event must be one of: ${WEBHOOK_EVENTS.join(', ')}.` });
      } else event = query.event;
    }
    let limit = SAMPLES_DEFAULT_LIMIT;
    if (query.limit !== undefined) {
      const raw = query.limit;
      if (typeof raw !== 'string' || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > SAMPLES_MAX_LIMIT) {
        violations.push({ field: 'limit', reason: 'invalid_value', message: `limit must be an integer from 1 to ${SAMPLES_MAX_LIMIT}.` });
      } else limit = Number(raw);
    }
    if (violations.length > 0) throw new ValidationFailedError(violations);
    return { event, limit };
  }

  async list(accountId: AccountId, event: string | null, limit: number): Promise<Page<WebhookPayload>> {
    const types = event ? [event] : [...WEBHOOK_EVENTS];
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
      [accountId, types, limit],
    );
    return unpaginated(rows.map((row) => toPayload(this.bodyOf(row), row.id, null)));
  }

  private bodyOf(row: SampleRow): StoredWebhookBody {
    if (row.source === 'sample' && row.body) return row.body;
    const data = { ...(row.data ?? {}) };
    if (row.contact_id && data.contact_id === undefined) data.contact_id = row.contact_id;
    return storedBody(row.event, row.at, data, row.actor ?? { type: null, id: null, name: null, via: null });
  }
}
