import { Injectable } from '@nestjs/common';
import { EditionStatus, EventSpec, EventStatus } from '@leadflow/events-contracts';
import { EventsSandboxData } from '@leadflow/events-core';
import { AccountId } from '@leadflow/shared-kernel';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

/** Registrations and received custom events go; events and editions stay. */
const EVENTS_DATA_TABLES = ['events.registrations', 'events.custom_events'] as const;

/**
 * {@link EventsSandboxData} on PostgreSQL (test mode, issue 15 item 4): reads and deletes only in the
 * `events` schema, inside the caller's transaction.
 */
@Injectable()
export class PostgresEventsSandboxData extends EventsSandboxData {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async exportConfiguration(accountId: AccountId): Promise<EventSpec[]> {
    const manager = this.transactions.manager;
    const events: { id: string; slug: string; name: string; status: EventStatus; languages: string[] }[] = await manager.query(
      `SELECT id, slug, name, status, languages FROM events.events WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    const editions: { event_id: string; name: string; starts_at: Date; ends_at: Date; status: EditionStatus }[] = await manager.query(
      `SELECT event_id, name, starts_at, ends_at, status FROM events.editions WHERE account_id = $1 ORDER BY event_id, position`,
      [accountId],
    );
    return events.map((event) => ({
      slug: event.slug,
      name: event.name,
      status: event.status,
      languages: event.languages,
      editions: editions
        .filter((edition) => edition.event_id === event.id)
        .map((edition) => ({ name: edition.name, startsAt: edition.starts_at.toISOString(), endsAt: edition.ends_at.toISOString(), status: edition.status })),
    }));
  }

  deleteAccountData(accountId: AccountId): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, EVENTS_DATA_TABLES);
  }
}
