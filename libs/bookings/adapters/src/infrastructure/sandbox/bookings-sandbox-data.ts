import { Injectable } from '@nestjs/common';
import { AvailabilityWindowSpec, CalendarQuestionSpec, ExportedCalendar } from '@leadflow/bookings-contracts';
import { BookingsSandboxData } from '@leadflow/bookings-core';
import { AccountId } from '@leadflow/shared-kernel';
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

/** Children first; calendars and hosts' blocked times stay. */
const BOOKINGS_DATA_TABLES = ['bookings.host_calendar_events', 'bookings.bookings'] as const;

/**
 * {@link BookingsSandboxData} on PostgreSQL (test mode, issue 15 item 4): reads and deletes only in the
 * `bookings` schema, inside the caller's transaction.
 */
@Injectable()
export class PostgresBookingsSandboxData extends BookingsSandboxData {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async exportConfiguration(accountId: AccountId): Promise<ExportedCalendar[]> {
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

  deleteAccountData(accountId: AccountId): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, BOOKINGS_DATA_TABLES);
  }
}
