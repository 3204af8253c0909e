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

/**
 * `INSERT` of any number of activity entries of one account, parameters `$first` … `$first+6`
 * (account, ids, contact ids, types, actors, data, times): the same SQL text whatever the count.
 */
export function insertActivitySql(first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO platform.activity_log (id, account_id, contact_id, type, actor, data, created_at)
    SELECT e.id, ${p(0)}::uuid, e.contact_id, e.type, e.actor::jsonb, e.data::jsonb, e.created_at
      FROM unnest(${p(1)}::uuid[], ${p(2)}::uuid[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::timestamptz[])
           AS e(id, contact_id, type, actor, data, created_at)`;
}

/** The 7 parameters of {@link insertActivitySql}. */
export function activityParams(accountId: AccountId | string, rows: readonly ActivityRow[]): unknown[] {
  return [
    accountId,
    rows.map((row) => row.id),
    rows.map((row) => row.contactId),
    rows.map((row) => row.type),
    rows.map((row) => JSON.stringify(row.actor)),
    rows.map((row) => JSON.stringify(row.data ?? {})),
    rows.map((row) => row.at.toISOString()),
  ];
}

/**
 * `INSERT` of any number of outbox events, parameters `$first` … `$first+6` (ids, accounts, types,
 * payloads, actors, times, request ids), in the order given (`WITH ORDINALITY … ORDER BY`), so `sequence`
 * (bigserial, the relay's reading order) follows it.
 */
export function insertOutboxSql(first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relayed_at, relay_attempts, request_id)
    SELECT o.id, o.account_id, o.type, o.payload::jsonb, o.actor::jsonb, o.occurred_at, NULL, 0, o.request_id
      FROM unnest(${p(0)}::uuid[], ${p(1)}::uuid[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::timestamptz[], ${p(6)}::text[])
           WITH ORDINALITY AS o(id, account_id, type, payload, actor, occurred_at, request_id, position)
     ORDER BY o.position`;
}

/**
 * The 7 parameters of {@link insertOutboxSql}. The request id is the one the event's actor carries
 * (request-trace.ts: the api request that made the write), null otherwise.
 */
export function outboxParams(events: readonly IntegrationEvent[]): unknown[] {
  return [
    events.map((event) => event.id),
    events.map((event) => event.accountId),
    events.map((event) => event.type),
    events.map((event) => JSON.stringify(event.payload)),
    events.map((event) => JSON.stringify(event.actor)),
    events.map((event) => new Date(event.occurredAt).toISOString()),
    events.map(requestIdOfEvent),
  ];
}
