import { Injectable } from '@nestjs/common';
import { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ExternalBusyTime, ExternalCalendarPort, HostCalendarEvent } from '@leadflow/bookings-core';

/**
 * Default {@link ExternalCalendarPort}: the hosts' calendars kept in PostgreSQL.
 * `bookings.host_busy_times` holds blocked times (`kind` `blocked_time`) and busy times synced from the
 * external calendar (`kind` `google_busy`); `bookings.host_calendar_events` holds the event each booking
 * puts in its host's calendar (`removed_at` set when the booking is cancelled or archived).
 */
@Injectable()
export class PostgresExternalCalendarAdapter extends ExternalCalendarPort {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async busyTimes(accountId: AccountId, hostIds: readonly string[], from: Date, to: Date): Promise<ExternalBusyTime[]> {
    if (hostIds.length === 0) return [];
    const rows: { host_id: string; kind: 'blocked_time' | 'google_busy'; start_at: Date; end_at: Date }[] = await this.transactions.manager.query(
      `SELECT host_id, kind, start_at, end_at FROM bookings.host_busy_times
        WHERE account_id = $1 AND host_id = ANY($2::uuid[]) AND start_at < $4 AND end_at > $3`,
      [accountId, hostIds, from, to],
    );
    return rows.map((row) => ({ hostId: row.host_id, cause: row.kind, start: row.start_at, end: row.end_at }));
  }

  async addEvent(accountId: AccountId, event: HostCalendarEvent): Promise<void> {
    await this.transactions.manager.query(
      `INSERT INTO bookings.host_calendar_events (booking_id, account_id, calendar_id, host_id, title, start_at, end_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [event.bookingId, accountId, event.calendarId, event.hostId, event.title, event.start, event.end],
    );
  }

  async removeEvent(accountId: AccountId, bookingId: string): Promise<void> {
    await this.transactions.manager.query(
      `UPDATE bookings.host_calendar_events SET removed_at = now() WHERE account_id = $1 AND booking_id = $2 AND removed_at IS NULL`,
      [accountId, bookingId],
    );
  }

  async recordBusyTime(accountId: AccountId, busy: ExternalBusyTime & { id: string }): Promise<void> {
    await this.transactions.manager.query(
      `INSERT INTO bookings.host_busy_times (id, account_id, host_id, kind, start_at, end_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [busy.id, accountId, busy.hostId, busy.cause, busy.start, busy.end],
    );
  }
}
