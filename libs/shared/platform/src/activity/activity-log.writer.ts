import { Injectable } from '@nestjs/common';
import { Actor, AccountId, Clock, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '../database/transaction-host';

export interface ActivityEntry {
  /** The entry's id (a UUID) when the caller needs it before writing (e.g. to reference it in the same transaction); a new one by default. */
  id?: string;
  contactId: string | null;
  type: string;
  actor: Actor;
  data?: Record<string, unknown>;
  /** Defaults to the clock's now (UTC). */
  at?: Date;
}

/** One parameterised statement for any number of entries (the same SQL text whatever the count). */
const INSERT_ENTRIES = `
  INSERT INTO platform.activity_log (id, account_id, contact_id, type, actor, data, created_at)
  SELECT e.id, $1::uuid, e.contact_id, e.type, e.actor::jsonb, e.data::jsonb, e.created_at
    FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
         AS e(id, contact_id, type, actor, data, created_at)`;

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
    await this.transactions.manager.query(INSERT_ENTRIES, [
      accountId,
      ids,
      entries.map((entry) => entry.contactId),
      entries.map((entry) => entry.type),
      entries.map((entry) => JSON.stringify(entry.actor)),
      entries.map((entry) => JSON.stringify(entry.data ?? {})),
      entries.map((entry) => (entry.at ?? this.clock.now()).toISOString()),
    ]);
    return ids;
  }
}
