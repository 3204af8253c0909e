import type { AccountId, IntegrationEvent } from '@leadflow/shared-kernel';
import { requestIdOfEvent } from '../logging/request-trace';

/** An activity-log entry as the statements below take it (ids and times already chosen). */
export interface ActivityRow {
  id: string;
  contactId: string | null;
  type: string;
  actor: unknown;
  data?: Record<string, unknown>;
  at: Date;
}

/** ` WHERE <guard>` when a guard is given (a boolean SQL expression), else nothing. */
const where = (guard?: string) => (guard ? ` WHERE ${guard}` : '');

/**
 * `INSERT` of any number of activity entries, ONE parameter `$first`: a JSON array of rows shaped like
 * `platform.activity_log` (`jsonb_populate_recordset` types each field from the table), so the SQL text
 * is the same whatever the count and the client serialises one string instead of seven arrays (issue 11:
 * pg's array escaping of the JSON data was a tenth of a capture's JavaScript). With `guard`, the rows are
 * written only when that boolean SQL expression holds (lead capture's "only if still a new person").
 */
export function insertActivitySql(first: number, guard?: string): string {
  return `INSERT INTO platform.activity_log (id, account_id, contact_id, type, actor, data, created_at)
    SELECT e.id, e.account_id, e.contact_id, e.type, e.actor, e.data, e.created_at
      FROM jsonb_populate_recordset(NULL::platform.activity_log, $${first}::jsonb) AS e${where(guard)}`;
}

/** The one parameter of {@link insertActivitySql}: the rows as a JSON array (times in ISO 8601, UTC). */
export function activityParams(accountId: AccountId | string, rows: readonly ActivityRow[]): unknown[] {
  return [
    JSON.stringify(
      rows.map((row) => ({
        id: row.id,
        account_id: accountId,
        contact_id: row.contactId,
        type: row.type,
        actor: row.actor ?? null,
        data: row.data ?? {},
        created_at: row.at.toISOString(),
      })),
    ),
  ];
}

/**
 * `INSERT` of any number of outbox events, ONE parameter `$first` (a JSON array of rows shaped like
 * `platform.outbox`), in the order given (`WITH ORDINALITY … ORDER BY`), so `sequence` (bigserial, the
 * relay's reading order) follows it. With `guard`, written only when that boolean SQL expression holds.
 */
export function insertOutboxSql(first: number, guard?: string): string {
  return `INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relayed_at, relay_attempts, request_id)
    SELECT o.id, o.account_id, o.type, o.payload, o.actor, o.occurred_at, NULL, 0, o.request_id
      FROM jsonb_array_elements($${first}::jsonb) WITH ORDINALITY AS e(value, position)
     CROSS JOIN LATERAL jsonb_populate_record(NULL::platform.outbox, e.value) AS o${where(guard)}
     ORDER BY e.position`;
}

/**
 * The one parameter of {@link insertOutboxSql}. The request id is the one the event's actor carries
 * (request-trace.ts: the api request that made the write), null otherwise.
 */
export function outboxParams(events: readonly IntegrationEvent[]): unknown[] {
  return [
    JSON.stringify(
      events.map((event) => ({
        id: event.id,
        account_id: event.accountId,
        type: event.type,
        payload: event.payload,
        actor: event.actor ?? null,
        occurred_at: new Date(event.occurredAt).toISOString(),
        request_id: requestIdOfEvent(event),
      })),
    ),
  ];
}
