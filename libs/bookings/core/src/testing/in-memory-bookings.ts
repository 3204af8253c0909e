import type { AccountId, Actor, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { BookingView } from '@leadflow/bookings-contracts';
import type { ContactBookingProfile } from '@leadflow/contacts-contracts';
import type { OutgoingEmailRequest } from '@leadflow/messaging-contracts';
import type { Calendar } from '../domain/calendar';
import {
  BookingDirectory,
  BookingGuest,
  BookingMailer,
  BookingTeamMember,
} from '../application/ports/booking-collaborators.port';
import {
  BookingListFilter,
  BookingRepository,
  BookingsReadModel,
  BookingState,
  CalendarRepository,
  HostBusyBooking,
  HostLoad,
} from '../application/ports/bookings.repository.port';
import { ExternalBusyTime, ExternalCalendarPort, HostCalendarEvent } from '../application/ports/external-calendar.port';
import { toBookingView } from '../application/views';

/** In-memory fakes of the bookings ports, for handler unit tests (no locks: tests run one request at a time). */
export class InMemoryCalendars extends CalendarRepository {
  readonly rows = new Map<string, Calendar>();
  async insert(calendar: Calendar): Promise<void> {
    this.rows.set(calendar.id, calendar);
  }
  async find(accountId: AccountId, calendarId: string): Promise<Calendar | null> {
    const calendar = this.rows.get(calendarId);
    return calendar && calendar.accountId === accountId ? calendar : null;
  }
}

export class InMemoryBookings extends BookingRepository {
  readonly rows: BookingState[] = [];
  async lockContactOnCalendar(): Promise<void> {}
  async lockHosts(): Promise<void> {}
  async findUpcomingForContact(accountId: AccountId, calendarId: string, contactId: string, now: Date): Promise<string | null> {
    const found = this.live(accountId).find((b) => b.calendarId === calendarId && b.contactId === contactId && b.status === 'confirmed' && b.start > now);
    return found?.id ?? null;
  }
  async overlapping(accountId: AccountId, hostIds: readonly string[], from: Date, to: Date): Promise<HostBusyBooking[]> {
    return this.live(accountId)
      .filter((b) => hostIds.includes(b.hostId) && b.status === 'confirmed' && b.start < to && b.end > from)
      .map((b) => ({ id: b.id, hostId: b.hostId, calendarId: b.calendarId, start: b.start, end: b.end }));
  }
  async sessionsPerHost(accountId: AccountId, calendarId: string, hostIds: readonly string[], from: Date, to: Date): Promise<Map<string, number>> {
    const sessions = new Map<string, Set<number>>();
    for (const b of this.live(accountId)) {
      if (b.calendarId !== calendarId || !hostIds.includes(b.hostId) || b.status === 'cancelled' || b.start < from || b.start >= to) continue;
      sessions.set(b.hostId, (sessions.get(b.hostId) ?? new Set()).add(b.start.getTime()));
    }
    return new Map([...sessions].map(([host, starts]) => [host, starts.size]));
  }
  async loads(accountId: AccountId, calendarId: string, hostIds: readonly string[], now: Date): Promise<HostLoad[]> {
    return hostIds.map((hostId) => {
      const mine = this.live(accountId).filter((b) => b.calendarId === calendarId && b.hostId === hostId);
      const last = mine.reduce<Date | null>((max, b) => (max === null || b.createdAt > max ? b.createdAt : max), null);
      return { hostId, upcoming: mine.filter((b) => b.status === 'confirmed' && b.start > now).length, lastBookedAt: last };
    });
  }
  async insert(booking: BookingState): Promise<void> {
    this.rows.push({ ...booking });
  }
  async find(accountId: AccountId, bookingId: string): Promise<BookingState | null> {
    return this.live(accountId).find((b) => b.id === bookingId) ?? null;
  }
  async update(booking: BookingState): Promise<void> {
    const index = this.rows.findIndex((b) => b.id === booking.id);
    this.rows[index] = { ...booking };
  }
  async archiveForContacts(accountId: AccountId, contactIds: readonly string[], now: Date): Promise<BookingState[]> {
    const archived = this.live(accountId).filter((b) => contactIds.includes(b.contactId));
    for (const b of archived) b.archivedAt = now;
    return archived;
  }
  private live(accountId: AccountId): BookingState[] {
    return this.rows.filter((b) => b.accountId === accountId && b.archivedAt === null);
  }
}

export class InMemoryBookingsReadModel extends BookingsReadModel {
  constructor(private readonly bookings: InMemoryBookings) {
    super();
  }
  async list(accountId: AccountId, filter: BookingListFilter, page: { limit: number; after: KeysetPosition | null }): Promise<Page<BookingView>> {
    const rows = this.bookings.rows
      .filter((b) => b.accountId === accountId && b.archivedAt === null && (!filter.status || b.status === filter.status))
      .sort((a, b) => b.start.getTime() - a.start.getTime() || b.id.localeCompare(a.id));
    return { data: rows.slice(0, page.limit).map(toBookingView), pagination: { next_cursor: null, has_more: rows.length > page.limit, limit: page.limit, total_count: rows.length } };
  }
}

export class InMemoryExternalCalendar extends ExternalCalendarPort {
  readonly busy: ExternalBusyTime[] = [];
  readonly events = new Map<string, HostCalendarEvent & { removed: boolean }>();
  async busyTimes(_: AccountId, hostIds: readonly string[], from: Date, to: Date): Promise<ExternalBusyTime[]> {
    return this.busy.filter((b) => hostIds.includes(b.hostId) && b.start < to && b.end > from);
  }
  async addEvent(_: AccountId, event: HostCalendarEvent): Promise<void> {
    this.events.set(event.bookingId, { ...event, removed: false });
  }
  async removeEvent(_: AccountId, bookingId: string): Promise<void> {
    const event = this.events.get(bookingId);
    if (event) event.removed = true;
  }
  async recordBusyTime(_: AccountId, busy: ExternalBusyTime): Promise<void> {
    this.busy.push(busy);
  }
}

export class FakeBookingDirectory extends BookingDirectory {
  readonly members: BookingTeamMember[] = [];
  readonly contacts = new Map<string, ContactBookingProfile>();
  /** Stage id → open. */
  readonly stages = new Map<string, boolean>();
  async teamMembers(): Promise<BookingTeamMember[]> {
    return this.members;
  }
  async accountTimezone(): Promise<string> {
    return 'America/Montreal';
  }
  async contact(_: AccountId, contactId: string): Promise<ContactBookingProfile | null> {
    return this.contacts.get(contactId) ?? null;
  }
  async findOrCreateGuest(_: AccountId, guest: BookingGuest): Promise<string> {
    const existing = [...this.contacts.values()].find((c) => c.email === guest.email);
    if (existing) return existing.id;
    const id = `guest-${this.contacts.size + 1}`;
    this.contacts.set(id, { id, first_name: guest.name, last_name: null, email: guest.email, phone: guest.phone, company: null, archived: false, sales_rep_id: null, stage_id: null, disqualified: false });
    return id;
  }
  async stageIsOpen(_: AccountId, stageId: string): Promise<boolean | null> {
    return this.stages.get(stageId) ?? null;
  }
}

export class FakeBookingMailer extends BookingMailer {
  readonly sent: OutgoingEmailRequest[] = [];
  async queue(_: AccountId, email: OutgoingEmailRequest): Promise<boolean> {
    this.sent.push(email);
    return true;
  }
}

/** The actor of handler tests. */
export const TEST_ACTOR: Actor = { type: 'api_key', id: 'key', name: 'full', via: 'api_key' };
