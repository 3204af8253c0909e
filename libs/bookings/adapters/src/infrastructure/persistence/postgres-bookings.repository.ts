import { Injectable } from '@nestjs/common';
import { AccountId, encodeCursor, isUuid, KeysetPosition, Page } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import type { BookingStatus, BookingView } from '@leadflow/bookings-contracts';
import {
  BookingListFilter,
  BookingRepository,
  BookingsReadModel,
  BookingState,
  Calendar,
  CalendarRepository,
  HostBusyBooking,
  HostLoad,
  toBookingView,
} from '@leadflow/bookings-core';

/** A row of `bookings.bookings` as pg returns it. */
interface BookingRow {
  id: string;
  account_id: string;
  calendar_id: string;
  contact_id: string;
  host_id: string;
  meeting_link: string | null;
  start_at: Date;
  end_at: Date;
  status: BookingStatus;
  timezone: string | null;
  guest_name: string | null;
  guest_email: string | null;
  guest_phone: string | null;
  notes: string | null;
  form_responses: Record<string, { value: unknown }>;
  cancelled_at: Date | null;
  cancelled_by: string | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const BOOKING_COLUMNS = `id, account_id, calendar_id, contact_id, host_id, meeting_link, start_at, end_at, status, timezone, guest_name,
  guest_email, guest_phone, notes, form_responses, cancelled_at, cancelled_by, archived_at, created_at, updated_at`;

function toState(row: BookingRow): BookingState {
  return {
    id: row.id,
    accountId: row.account_id,
    calendarId: row.calendar_id,
    contactId: row.contact_id,
    hostId: row.host_id,
    meetingLink: row.meeting_link,
    start: row.start_at,
    end: row.end_at,
    status: row.status,
    timezone: row.timezone,
    guestName: row.guest_name,
    guestEmail: row.guest_email,
    guestPhone: row.guest_phone,
    notes: row.notes,
    formResponses: row.form_responses ?? {},
    cancelledAt: row.cancelled_at,
    cancelledBy: row.cancelled_by,
    archivedAt: row.archived_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Namespaces of the advisory locks (first key of `pg_advisory_xact_lock(int, int)`). */
const LOCK_CONTACT = 0x6b6f_0001;
const LOCK_HOST = 0x6b6f_0002;

/** {@link CalendarRepository} on `bookings.calendars` (raw SQL through the current unit of work). */
@Injectable()
export class PostgresCalendarRepository extends CalendarRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async insert(calendar: Calendar): Promise<void> {
    await this.transactions.manager.query(
      `INSERT INTO bookings.calendars (id, account_id, name, duration_minutes, slot_interval_minutes, min_notice_minutes, max_days_ahead,
         daily_max, capacity, timezone, host_ids, availability, questions, requires_qualified_lead, is_active, meeting_link)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::uuid[], $12::jsonb, $13::jsonb, $14, $15, $16)`,
      [
        calendar.id,
        calendar.accountId,
        calendar.name,
        calendar.durationMinutes,
        calendar.slotIntervalMinutes,
        calendar.minNoticeMinutes,
        calendar.maxDaysAhead,
        calendar.dailyMax,
        calendar.capacity,
        calendar.timezone,
        calendar.hostIds,
        JSON.stringify(calendar.availability),
        JSON.stringify(calendar.questions),
        calendar.requiresQualifiedLead,
        calendar.isActive,
        calendar.meetingLink,
      ],
    );
  }

  async find(accountId: AccountId, calendarId: string): Promise<Calendar | null> {
    if (!isUuid(calendarId)) return null;
    const rows = await this.transactions.manager.query(`SELECT * FROM bookings.calendars WHERE account_id = $1 AND id = $2`, [accountId, calendarId]);
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      durationMinutes: row.duration_minutes,
      slotIntervalMinutes: row.slot_interval_minutes,
      minNoticeMinutes: row.min_notice_minutes,
      maxDaysAhead: row.max_days_ahead,
      dailyMax: row.daily_max,
      capacity: row.capacity,
      timezone: row.timezone,
      availability: row.availability,
      questions: row.questions,
      requiresQualifiedLead: row.requires_qualified_lead,
      isActive: row.is_active,
      meetingLink: row.meeting_link,
      hostIds: [...(row.host_ids as string[])].sort(),
    };
  }
}

/** {@link BookingRepository} on `bookings.bookings`, advisory locks included. */
@Injectable()
export class PostgresBookingRepository extends BookingRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private get db() {
    return this.transactions.manager;
  }

  async lockContactOnCalendar(accountId: AccountId, calendarId: string, contactId: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock($1::int, hashtext($2))`, [LOCK_CONTACT, `${accountId}:${calendarId}:${contactId}`]);
  }

  async lockHosts(accountId: AccountId, hostIds: readonly string[]): Promise<void> {
    for (const hostId of [...hostIds].sort()) {
      await this.db.query(`SELECT pg_advisory_xact_lock($1::int, hashtext($2))`, [LOCK_HOST, `${accountId}:${hostId}`]);
    }
  }

  async findUpcomingForContact(accountId: AccountId, calendarId: string, contactId: string, now: Date): Promise<string | null> {
    const rows = await this.db.query(
      `SELECT id FROM bookings.bookings
        WHERE account_id = $1 AND contact_id = $2 AND calendar_id = $3 AND start_at > $4 AND status = 'confirmed' AND archived_at IS NULL
        ORDER BY start_at, id LIMIT 1`,
      [accountId, contactId, calendarId, now],
    );
    return rows[0]?.id ?? null;
  }

  async overlapping(accountId: AccountId, hostIds: readonly string[], from: Date, to: Date): Promise<HostBusyBooking[]> {
    const rows: { id: string; host_id: string; calendar_id: string; start_at: Date; end_at: Date }[] = await this.db.query(
      `SELECT id, host_id, calendar_id, start_at, end_at FROM bookings.bookings
        WHERE account_id = $1 AND host_id = ANY($2::uuid[]) AND status = 'confirmed' AND archived_at IS NULL
          AND start_at < $4 AND end_at > $3`,
      [accountId, hostIds, from, to],
    );
    return rows.map((row) => ({ id: row.id, hostId: row.host_id, calendarId: row.calendar_id, start: row.start_at, end: row.end_at }));
  }

  async sessionsPerHost(accountId: AccountId, calendarId: string, hostIds: readonly string[], from: Date, to: Date): Promise<Map<string, number>> {
    const rows: { host_id: string; n: number }[] = await this.db.query(
      `SELECT host_id, count(DISTINCT start_at)::int AS n FROM bookings.bookings
        WHERE account_id = $1 AND host_id = ANY($2::uuid[]) AND calendar_id = $3 AND status <> 'cancelled' AND archived_at IS NULL
          AND start_at >= $4 AND start_at < $5
        GROUP BY host_id`,
      [accountId, hostIds, calendarId, from, to],
    );
    return new Map(rows.map((row) => [row.host_id, row.n]));
  }

  async loads(accountId: AccountId, calendarId: string, hostIds: readonly string[], now: Date): Promise<HostLoad[]> {
    const rows: { host_id: string; upcoming: number; last_booked_at: Date | null }[] = await this.db.query(
      `SELECT host_id,
              count(*) FILTER (WHERE status = 'confirmed' AND start_at > $4)::int AS upcoming,
              max(created_at) AS last_booked_at
         FROM bookings.bookings
        WHERE account_id = $1 AND calendar_id = $2 AND host_id = ANY($3::uuid[]) AND archived_at IS NULL
        GROUP BY host_id`,
      [accountId, calendarId, hostIds, now],
    );
    return rows.map((row) => ({ hostId: row.host_id, upcoming: row.upcoming, lastBookedAt: row.last_booked_at }));
  }

  async insert(booking: BookingState): Promise<void> {
    await this.db.query(
      `INSERT INTO bookings.bookings (${BOOKING_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16, $17, $18, $19, $20)`,
      [
        booking.id,
        booking.accountId,
        booking.calendarId,
        booking.contactId,
        booking.hostId,
        booking.meetingLink,
        booking.start,
        booking.end,
        booking.status,
        booking.timezone,
        booking.guestName,
        booking.guestEmail,
        booking.guestPhone,
        booking.notes,
        JSON.stringify(booking.formResponses),
        booking.cancelledAt,
        booking.cancelledBy,
        booking.archivedAt,
        booking.createdAt,
        booking.updatedAt,
      ],
    );
  }

  async find(accountId: AccountId, bookingId: string, options: { lock?: boolean } = {}): Promise<BookingState | null> {
    if (!isUuid(bookingId)) return null;
    const lock = options.lock && this.transactions.inTransaction ? ' FOR UPDATE' : '';
    const rows: BookingRow[] = await this.db.query(
      `SELECT ${BOOKING_COLUMNS} FROM bookings.bookings WHERE account_id = $1 AND id = $2 AND archived_at IS NULL${lock}`,
      [accountId, bookingId],
    );
    return rows[0] ? toState(rows[0]) : null;
  }

  async update(booking: BookingState): Promise<void> {
    await this.db.query(
      `UPDATE bookings.bookings SET status = $3, cancelled_at = $4, cancelled_by = $5, archived_at = $6, updated_at = $7
        WHERE account_id = $1 AND id = $2`,
      [booking.accountId, booking.id, booking.status, booking.cancelledAt, booking.cancelledBy, booking.archivedAt, booking.updatedAt],
    );
  }

  async archiveForContacts(accountId: AccountId, contactIds: readonly string[], now: Date): Promise<BookingState[]> {
    const ids = contactIds.filter((id) => isUuid(id));
    if (ids.length === 0) return [];
    const rows: BookingRow[] = await this.db.query(
      // A CTE so the driver answers rows (a bare UPDATE … RETURNING answers [rows, count] through TypeORM).
      `WITH archived AS (
         UPDATE bookings.bookings SET archived_at = $3, updated_at = $3
          WHERE account_id = $1 AND contact_id = ANY($2::uuid[]) AND archived_at IS NULL
          RETURNING ${BOOKING_COLUMNS}
       ) SELECT * FROM archived`,
      [accountId, ids, now],
    );
    return rows.map(toState);
  }
}

/**
 * {@link BookingsReadModel}: `GET /v1/bookings` with its filters on the list index; keyset on
 * `(start_at, id)` descending (the opaque cursor's instant is the last row's `start_datetime`).
 */
@Injectable()
export class PostgresBookingsReadModel extends BookingsReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async list(accountId: AccountId, filter: BookingListFilter, page: { limit: number; after: KeysetPosition | null }): Promise<Page<BookingView>> {
    const where = ['account_id = $1', 'archived_at IS NULL'];
    const params: unknown[] = [accountId];
    const add = (clause: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(clause(`$${params.length}`));
    };
    if (filter.from) add((n) => `start_at >= ${n}`, filter.from);
    if (filter.to) add((n) => `start_at <= ${n}`, filter.to);
    if (filter.status) add((n) => `status = ${n}`, filter.status);
    if (filter.calendarId) add((n) => `calendar_id = ${n}`, filter.calendarId);
    if (filter.contactId) add((n) => `contact_id = ${n}`, filter.contactId);
    const countParams = [...params];
    const countWhere = where.join(' AND ');
    if (page.after?.id) {
      params.push(page.after.createdAt, page.after.id);
      where.push(`(start_at, id) < ($${params.length - 1}, $${params.length})`);
    } else if (page.after) {
      add((n) => `start_at < ${n}`, page.after.createdAt);
    }
    params.push(page.limit + 1);
    const rows: BookingRow[] = await this.transactions.manager.query(
      `SELECT ${BOOKING_COLUMNS} FROM bookings.bookings WHERE ${where.join(' AND ')} ORDER BY start_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    const [{ n }] = await this.transactions.manager.query(`SELECT count(*)::int AS n FROM bookings.bookings WHERE ${countWhere}`, countParams);
    const hasMore = rows.length > page.limit;
    const visible = hasMore ? rows.slice(0, page.limit) : rows;
    const last = visible[visible.length - 1];
    return {
      data: visible.map((row) => toBookingView(toState(row))),
      pagination: {
        next_cursor: hasMore && last ? encodeCursor({ createdAt: last.start_at, id: last.id }) : null,
        has_more: hasMore,
        limit: page.limit,
        total_count: n,
      },
    };
  }
}
