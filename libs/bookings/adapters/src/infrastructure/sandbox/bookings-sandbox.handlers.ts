import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  AvailabilityWindowSpec,
  CalendarQuestionSpec,
  ExportCalendarsQuery,
  ExportedCalendar,
  ResetBookingsDataCommand,
} from '@leadflow/bookings-contracts';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

interface CalendarRow {
  name: string;
  duration_minutes: number;
  slot_interval_minutes: number | null;
  min_notice_minutes: number | null;
  max_days_ahead: number | null;
  daily_max: number | null;
  capacity: number | null;
  timezone: string | null;
  host_ids: string[];
  availability: AvailabilityWindowSpec[];
  questions: CalendarQuestionSpec[];
  requires_qualified_lead: boolean;
  is_active: boolean;
  meeting_link: string | null;
}

/**
 * Test mode (issue 15, item 4), bookings side: the account's calendars in blueprint form (hosts as team
 * member ids in `hostIds`, for the caller to map to emails). Reads only the `bookings` schema.
 */
@QueryHandler(ExportCalendarsQuery)
export class ExportCalendarsHandler implements IQueryHandler<ExportCalendarsQuery> {
  constructor(private readonly transactions: TransactionHost) {}

  async execute({ accountId }: ExportCalendarsQuery): Promise<ExportedCalendar[]> {
    const rows: CalendarRow[] = await this.transactions.manager.query(
      `SELECT name, duration_minutes, slot_interval_minutes, min_notice_minutes, max_days_ahead, daily_max, capacity, timezone,
              host_ids, availability, questions, requires_qualified_lead, is_active, meeting_link
         FROM bookings.calendars WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map((row) => ({
      name: row.name,
      durationMinutes: row.duration_minutes,
      slotIntervalMinutes: row.slot_interval_minutes,
      minNoticeMinutes: row.min_notice_minutes,
      maxDaysAhead: row.max_days_ahead,
      dailyMax: row.daily_max,
      capacity: row.capacity,
      timezone: row.timezone,
      hosts: [],
      hostIds: row.host_ids ?? [],
      availability: row.availability ?? [],
      questions: row.questions ?? [],
      requiresQualifiedLead: row.requires_qualified_lead,
      isActive: row.is_active,
      meetingLink: row.meeting_link,
    }));
  }
}

/** Children first; calendars and hosts' blocked times stay. */
const BOOKINGS_DATA_TABLES = ['bookings.host_calendar_events', 'bookings.bookings'] as const;

/** {@link ResetBookingsDataCommand}: deletes the account's bookings in the caller's transaction. */
@CommandHandler(ResetBookingsDataCommand)
export class ResetBookingsDataHandler implements ICommandHandler<ResetBookingsDataCommand> {
  constructor(private readonly transactions: TransactionHost) {}

  execute({ accountId }: ResetBookingsDataCommand): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, BOOKINGS_DATA_TABLES);
  }
}

/** The api's test-mode handlers of the bookings context (BookingsHttpModule). */
export const BOOKINGS_SANDBOX_HANDLERS = [ExportCalendarsHandler, ResetBookingsDataHandler];
