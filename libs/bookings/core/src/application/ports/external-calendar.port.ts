import type { AccountId } from '@leadflow/shared-kernel';

/** A period a host is not available according to their calendar: a blocked time, or busy in the external (Google) calendar. */
export interface ExternalBusyTime {
  hostId: string;
  start: Date;
  end: Date;
  /** The `details.causes` value it produces. */
  cause: 'blocked_time' | 'google_busy';
}

/** The event a booking puts in its host's calendar. */
export interface HostCalendarEvent {
  bookingId: string;
  calendarId: string;
  hostId: string;
  start: Date;
  end: Date;
  title: string;
}

/**
 * The hosts' calendars (public-api-v1 › POST /v1/bookings "host external calendar"; States › Booking "event
 * added to host calendar", "event removed from host calendar"). The default adapter keeps blocked times,
 * external busy times and the bookings' events in PostgreSQL; a Google Calendar adapter would implement
 * the same port. Writes join the caller's unit of work.
 */
export abstract class ExternalCalendarPort {
  /** Blocked and busy times of the hosts overlapping `[from, to)` (the bookings' own events are not returned). */
  abstract busyTimes(accountId: AccountId, hostIds: readonly string[], from: Date, to: Date): Promise<ExternalBusyTime[]>;
  abstract addEvent(accountId: AccountId, event: HostCalendarEvent): Promise<void>;
  /** Removes the booking's event (no-op when there is none). */
  abstract removeEvent(accountId: AccountId, bookingId: string): Promise<void>;
  /** Records a blocked or busy period of a host (operator route; a calendar sync would call it too). */
  abstract recordBusyTime(accountId: AccountId, busy: ExternalBusyTime & { id: string }): Promise<void>;
}
