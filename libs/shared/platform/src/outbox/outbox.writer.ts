import { Injectable } from '@nestjs/common';
import { IntegrationEvent } from '@leadflow/shared-kernel';
import { insertOutboxSql, outboxParams } from '../activity/journal-statements';
import { TransactionHost } from '../database/transaction-host';

/** One parameterised statement for any number of events, in the order given (see `insertOutboxSql`). */
const INSERT_EVENTS = insertOutboxSql(1);

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
    await this.transactions.manager.query(INSERT_EVENTS, outboxParams(events));
  }
}
