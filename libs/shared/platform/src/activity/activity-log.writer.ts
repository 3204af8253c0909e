import { Injectable } from '@nestjs/common';
import { AccountId, Clock, JournalEntry, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '../database/transaction-host';
import { activityParams, insertActivitySql } from './journal-statements';

/** One parameterised statement for any number of entries (the same SQL text whatever the count). */
const INSERT_ENTRIES = insertActivitySql(1);

/** An activity-log / timeline entry: the kernel's {@link JournalEntry}. */
export type ActivityEntry = JournalEntry;

/**
 * Writes activity-log / timeline entries through the current unit of work, all of them in one INSERT
 * (issue 11, item 3). Returns the entry ids, in the order of `entries`.
 */
@Injectable()
export class ActivityLogWriter {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly clock: Clock,
  ) {}

  async record(accountId: AccountId, entries: readonly ActivityEntry[]): Promise<string[]> {
    if (entries.length === 0) return [];
    const ids = entries.map((entry) => entry.id ?? newId());
    const now = this.clock.now();
    await this.transactions.manager.query(INSERT_ENTRIES, activityParams(accountId, entries.map((entry, index) => ({ ...entry, id: ids[index], at: entry.at ?? now }))));
    return ids;
  }
}
