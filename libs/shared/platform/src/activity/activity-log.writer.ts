import { Injectable } from '@nestjs/common';
import { Actor, AccountId, Clock, newId } from '@leadflow/shared-kernel';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TransactionHost } from '../database/transaction-host';
import { ActivityLogRecord } from './activity-log.record';

export interface ActivityEntry {
  contactId: string | null;
  type: string;
  actor: Actor;
  data?: Record<string, unknown>;
  /** Defaults to the clock's now (UTC). */
  at?: Date;
}

/** Writes activity-log / timeline entries through the current unit of work. Returns the entry ids. */
@Injectable()
export class ActivityLogWriter {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly clock: Clock,
  ) {}

  async record(accountId: AccountId, entries: readonly ActivityEntry[]): Promise<string[]> {
    if (entries.length === 0) return [];
    const rows = entries.map((entry) => ({
      id: newId(),
      accountId,
      contactId: entry.contactId,
      type: entry.type,
      actor: entry.actor,
      data: entry.data ?? {},
      createdAt: entry.at ?? this.clock.now(),
    }));
    await this.transactions.manager.insert(ActivityLogRecord, rows as QueryDeepPartialEntity<ActivityLogRecord>[]);
    return rows.map((row) => row.id);
  }
}
