import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EditionStatus, EventSpec, EventStatus, ExportEventsQuery, ResetEventsDataCommand } from '@leadflow/events-contracts';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

/**
 * Test mode (issue 15, item 4), events side: the account's events with their editions (position order)
 * in blueprint form. Reads only the `events` schema.
 */
@QueryHandler(ExportEventsQuery)
export class ExportEventsHandler implements IQueryHandler<ExportEventsQuery> {
  constructor(private readonly transactions: TransactionHost) {}

  async execute({ accountId }: ExportEventsQuery): Promise<EventSpec[]> {
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
}

/** Registrations and received custom events go; events and editions stay. */
const EVENTS_DATA_TABLES = ['events.registrations', 'events.custom_events'] as const;

/** {@link ResetEventsDataCommand}: deletes the account's registrations and custom events in the caller's transaction. */
@CommandHandler(ResetEventsDataCommand)
export class ResetEventsDataHandler implements ICommandHandler<ResetEventsDataCommand> {
  constructor(private readonly transactions: TransactionHost) {}

  execute({ accountId }: ResetEventsDataCommand): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, EVENTS_DATA_TABLES);
  }
}

/** The api's test-mode handlers of the events context (EventsHttpModule). */
export const EVENTS_SANDBOX_HANDLERS = [ExportEventsHandler, ResetEventsDataHandler];
