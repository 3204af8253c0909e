import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { BookingStatus, BookingView } from '@leadflow/bookings-contracts';
import type { Calendar } from '../../domain/calendar';

/** One row of `bookings.bookings`. Instants are UTC. */
export interface BookingState {
  id: string;
  accountId: string;
  calendarId: string;
  contactId: string;
  hostId: string;
  meetingLink: string | null;
  start: Date;
  end: Date;
  status: BookingStatus;
  timezone: string | null;
  guestName: string | null;
  guestEmail: string | null;
  guestPhone: string | null;
  notes: string | null;
  formResponses: Record<string, { value: unknown }>;
  cancelledAt: Date | null;
  cancelledBy: string | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A confirmed booking of a host overlapping a period (any calendar of the account). */
export interface HostBusyBooking {
  id: string;
  hostId: string;
  calendarId: string;
  start: Date;
  end: Date;
}

/** How loaded a host is on a calendar: the fair rotation picks the least loaded. */
export interface HostLoad {
  hostId: string;
  /** Confirmed bookings of the calendar starting after now. */
  upcoming: number;
  /** Creation instant of the host's latest booking on the calendar, null when none. */
  lastBookedAt: Date | null;
}

/** Calendars of the account (schema `bookings`). */
export abstract class CalendarRepository {
  abstract insert(calendar: Calendar): Promise<void>;
  /** Null when missing, another account's, or `calendarId` is not a UUID. Inactive calendars are returned. */
  abstract find(accountId: AccountId, calendarId: string): Promise<Calendar | null>;
}

/** Bookings (schema `bookings`), written through the current unit of work. */
export abstract class BookingRepository {
  /**
   * Transaction-level locks (`pg_advisory_xact_lock`) serialising the writers of one contact on one
   * calendar, then of the given hosts (sorted, so two writers never wait on each other in a cycle).
   * Held until commit or rollback.
   */
  abstract lockContactOnCalendar(accountId: AccountId, calendarId: string, contactId: string): Promise<void>;
  abstract lockHosts(accountId: AccountId, hostIds: readonly string[]): Promise<void>;
  /** The contact's confirmed booking on the calendar starting after `now`, if any (not archived). */
  abstract findUpcomingForContact(accountId: AccountId, calendarId: string, contactId: string, now: Date): Promise<string | null>;
  /** Confirmed, not archived bookings of the hosts overlapping `[from, to)`. */
  abstract overlapping(accountId: AccountId, hostIds: readonly string[], from: Date, to: Date): Promise<HostBusyBooking[]>;
  /** Sessions (distinct start instants) of each host on the calendar in `[from, to)`, confirmed or past outcome. */
  abstract sessionsPerHost(accountId: AccountId, calendarId: string, hostIds: readonly string[], from: Date, to: Date): Promise<Map<string, number>>;
  abstract loads(accountId: AccountId, calendarId: string, hostIds: readonly string[], now: Date): Promise<HostLoad[]>;
  abstract insert(booking: BookingState): Promise<void>;
  /** Null when missing, archived, another account's or not a UUID; `lock` takes a row lock (FOR UPDATE). */
  abstract find(accountId: AccountId, bookingId: string, options?: { lock?: boolean }): Promise<BookingState | null>;
  abstract update(booking: BookingState): Promise<void>;
  /** Archives every booking of the contacts (contact deleted); returns the archived bookings. */
  abstract archiveForContacts(accountId: AccountId, contactIds: readonly string[], now: Date): Promise<BookingState[]>;
}

/** Filters of `GET /v1/bookings` (null = not filtered). `from`/`to` bound `start_datetime` inclusively. */
export interface BookingListFilter {
  from: Date | null;
  to: Date | null;
  status: BookingStatus | null;
  calendarId: string | null;
  contactId: string | null;
}

/** Reads of `GET /v1/bookings`: `start_datetime DESC, id DESC` keyset (the cursor carries start_datetime). */
export abstract class BookingsReadModel {
  abstract list(accountId: AccountId, filter: BookingListFilter, page: { limit: number; after: KeysetPosition | null }): Promise<Page<BookingView>>;
}
