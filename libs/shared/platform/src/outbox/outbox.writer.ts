import { Injectable } from '@nestjs/common';
import { IntegrationEvent } from '@leadflow/shared-kernel';
import { TransactionHost } from '../database/transaction-host';

/**
 * One parameterised statement for any number of events: the same SQL text whatever the count, rows
 * inserted in the order given (`WITH ORDINALITY … ORDER BY`), so `sequence` (bigserial, the relay's
 * reading order) follows the order of `append`'s argument.
 */
const INSERT_EVENTS = `
  INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relayed_at, relay_attempts)
  SELECT e.id, e.account_id, e.type, e.payload::jsonb, e.actor::jsonb, e.occurred_at, NULL, 0
    FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
         WITH ORDINALITY AS e(id, account_id, type, payload, actor, occurred_at, position)
   ORDER BY e.position`;

/**
 * Appends integration events to `platform.outbox` through the current unit of work, so they are
 * committed with the business rows (ARCHITECTURE › Writes, events and the worker). Call it inside
 * `TransactionHost.run`; outside one it writes in its own autocommit statement. All the events go in
 * one INSERT (issue 11, item 3: no statement per event).
 */
@Injectable()
export class OutboxWriter {
  constructor(private readonly transactions: TransactionHost) {}

  async append(events: readonly IntegrationEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.transactions.manager.query(INSERT_EVENTS, [
      events.map((event) => event.id),
      events.map((event) => event.accountId),
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.payload)),
      events.map((event) => JSON.stringify(event.actor)),
      events.map((event) => new Date(event.occurredAt).toISOString()),
    ]);
  }
}
