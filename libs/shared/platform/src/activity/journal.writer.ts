import { Injectable } from '@nestjs/common';
import { AccountId, Clock, IntegrationEvent, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '../database/transaction-host';
import type { ActivityEntry } from './activity-log.writer';
import { activityParams, insertActivitySql, insertOutboxSql, outboxParams } from './journal-statements';

/** Activity entries and outbox events in ONE statement: the entries' insert as a data-modifying CTE. */
const INSERT_JOURNAL = `WITH entries AS (${insertActivitySql(1)}) ${insertOutboxSql(2)}`;

/**
 * A write's journal as two data-modifying CTEs (`journal_entries`, `journal_events`) to put in the
 * `WITH` list of the write's own statement, so that a write and its activity entries and outbox rows
 * are ONE statement, atomic without `BEGIN`/`COMMIT` (issue 11: round trips per write). `first` is the
 * number of the first parameter (`$first`); the statement's parameters continue with `params`.
 * Entries without `id`/`at` get a new id and `now`. An empty journal gives no CTE. With `guard` (a
 * boolean SQL expression of the statement), the journal is written only when it holds.
 */
export function journalCtes(
  first: number,
  accountId: AccountId,
  entries: readonly ActivityEntry[],
  events: readonly IntegrationEvent[],
  now: Date,
  guard?: string,
): { ctes: string[]; params: unknown[] } {
  const ctes: string[] = [];
  const params: unknown[] = [];
  if (entries.length > 0) {
    const rows = entries.map((entry) => ({ ...entry, id: entry.id ?? newId(), at: entry.at ?? now }));
    ctes.push(`journal_entries AS (${insertActivitySql(first, guard)})`);
    params.push(...activityParams(accountId, rows));
  }
  if (events.length > 0) {
    ctes.push(`journal_events AS (${insertOutboxSql(first + params.length, guard)})`);
    params.push(...outboxParams(events));
  }
  return { ctes, params };
}

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
    const now = this.clock.now();
    const rows = entries.map((entry, index) => ({ ...entry, id: ids[index], at: entry.at ?? now }));
    await this.transactions.manager.query(INSERT_JOURNAL, [...activityParams(accountId, rows), ...outboxParams(events)]);
    return ids;
  }
}
