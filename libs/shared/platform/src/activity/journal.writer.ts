import { Injectable } from '@nestjs/common';
import { AccountId, Clock, IntegrationEvent, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '../database/transaction-host';
import type { ActivityEntry } from './activity-log.writer';

/**
 * Activity entries and outbox events in ONE statement (two data-modifying CTEs): the same SQL text
 * whatever the counts. Outbox rows are inserted in the order given (`WITH ORDINALITY … ORDER BY`), so
 * `sequence` follows it.
 */
const INSERT_JOURNAL = `
  WITH entries AS (
    INSERT INTO platform.activity_log (id, account_id, contact_id, type, actor, data, created_at)
    SELECT e.id, $1::uuid, e.contact_id, e.type, e.actor::jsonb, e.data::jsonb, e.created_at
      FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
           AS e(id, contact_id, type, actor, data, created_at)
  )
  INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relayed_at, relay_attempts)
  SELECT o.id, o.account_id, o.type, o.payload::jsonb, o.actor::jsonb, o.occurred_at, NULL, 0
    FROM unnest($8::uuid[], $9::uuid[], $10::text[], $11::text[], $12::text[], $13::timestamptz[])
         WITH ORDINALITY AS o(id, account_id, type, payload, actor, occurred_at, position)
   ORDER BY o.position`;

/**
 * A write's activity-log / timeline entries and its integration events (the transactional outbox),
 * through the current unit of work, in one round trip (issue 11: round trips per write). Call it
 * inside `TransactionHost.run` so both commit with the business rows. Returns the entry ids, in order.
 */
@Injectable()
export class JournalWriter {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly clock: Clock,
  ) {}

  async write(accountId: AccountId, entries: readonly ActivityEntry[], events: readonly IntegrationEvent[]): Promise<string[]> {
    const ids = entries.map((entry) => entry.id ?? newId());
    if (entries.length === 0 && events.length === 0) return ids;
    await this.transactions.manager.query(INSERT_JOURNAL, [
      accountId,
      ids,
      entries.map((entry) => entry.contactId),
      entries.map((entry) => entry.type),
      entries.map((entry) => JSON.stringify(entry.actor)),
      entries.map((entry) => JSON.stringify(entry.data ?? {})),
      entries.map((entry) => (entry.at ?? this.clock.now()).toISOString()),
      events.map((event) => event.id),
      events.map((event) => event.accountId),
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.payload)),
      events.map((event) => JSON.stringify(event.actor)),
      events.map((event) => new Date(event.occurredAt).toISOString()),
    ]);
    return ids;
  }
}
