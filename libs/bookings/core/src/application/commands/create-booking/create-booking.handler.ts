import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Clock, Journal, UnitOfWork, isUuid, newId, normalizeEmail } from '@leadflow/shared-kernel';
import { BOOKING_EVENTS, BookingView } from '@leadflow/bookings-contracts';
import type { ContactBookingProfile } from '@leadflow/contacts-contracts';
import {
  AlreadyBookedError,
  BookingReferenceNotFoundError,
  BookingRuleViolationError,
  BookingValidationError,
} from '../../../domain/bookings.errors';
import type { Calendar } from '../../../domain/calendar';
import { checkFormResponses } from '../../../domain/questions';
import { checkBookingWindow, checkRequestTimezone, endOf, hoursCauses, localDay, parseStartDatetime } from '../../../domain/slots';
import { bookingNotification } from '../../booking-email';
import { BookingDirectory, BookingGuest, BookingMailer, BookingTeamMember } from '../../ports/booking-collaborators.port';
import { BookingRepository, BookingState, CalendarRepository } from '../../ports/bookings.repository.port';
import { ExternalCalendarPort } from '../../ports/external-calendar.port';
import { bookingEvent, toBookingView } from '../../views';
import { CreateBookingCommand, CreateBookingInput } from './create-booking.command';

/** Causes of `host_unavailable`, in the spec's order. */
export const HOST_UNAVAILABLE_CAUSES = ['outside_window', 'outside_hours', 'other_booking', 'blocked_time', 'google_busy', 'daily_max'] as const;
export type HostUnavailableCause = (typeof HOST_UNAVAILABLE_CAUSES)[number];

/** A candidate host at the requested slot. */
interface HostSlot {
  hostId: string;
  causes: HostUnavailableCause[];
  /** Seats already taken in this host's group session of the calendar at this very start (always 0 when `capacity` is 1). */
  seatsTaken: number;
}

const trimmed = (value: string | null | undefined): string | null => {
  const text = value?.trim();
  return text ? text : null;
};

/**
 * `POST /v1/bookings` (public-api-v1 › Endpoints › Bookings, States › Booking). Checks, in order:
 * 1. 400 `validation_error` (single-cause `details`): `start_datetime` `invalid_datetime`; `timezone`
 *    `invalid_timezone`; `contact_or_guest_required` (field `contact_id`: neither `contact_id` nor
 *    `guest_name` plus `guest_email`); `guest_email` `invalid_format`.
 * 2. 404 `resource_not_found` with `details.field`: `event_type_id` (missing, inactive, another account's),
 *    `contact_id` (missing, merged, another account's), `host_id` (no team member of the account).
 * 3. 400: `slot_in_past`, `outside_window`, `off_cadence` (field `start_datetime`, see checkBookingWindow);
 *    `contact_without_email` (field `contact_id`); question failures (field `form_responses.<id>`, with
 *    `details.questions`, see checkFormResponses).
 * 4. 422 `business_rule_violation`: `contact_archived`; `lead_not_qualified` (calendar with
 *    `requires_qualified_lead`: the contact must sit in an open pipeline stage — neither won, lost nor the
 *    disqualification stage — and not be disqualified); `calendar_without_hosts` (no active team member
 *    hosts it); `host_not_on_calendar` (`host_id` not an active host of the calendar).
 * 5. Under transaction-level locks (the contact on the calendar, then the candidate hosts): 409
 *    `duplicate_resource` `already_booked` (`details.existing_booking_id`: the contact's confirmed booking
 *    of the calendar that starts after now); with `host_id`, 422 `host_unavailable` with `details.causes`
 *    (see HOST_UNAVAILABLE_CAUSES; any confirmed booking of the host overlapping the slot is
 *    `other_booking`, except a seat of the host's own group session of this calendar at this very start)
 *    then `slot_unavailable` (a group session — `capacity` above 1 — whose seats are all taken: the host
 *    is free, the slot is not); without `host_id`, the contact's sales rep when they host the calendar and
 *    are available, else a host whose group session at this start still has seats, else the fair rotation
 *    (fewest upcoming bookings on the calendar, then least recently booked, then id); no host available:
 *    422 `slot_unavailable` (no host was named, so no host is blamed; `details.causes` = the union of the
 *    hosts' causes when some were unavailable, absent when only full sessions stood in the way).
 * A guest (no `contact_id`) is found by email or created as a contact (source `booking`) inside the same
 * transaction. Success writes the booking (`confirmed`), the host's calendar event (ExternalCalendarPort),
 * the host's notification email (queued; skipped when the account has no sender), a `booking_created`
 * activity entry and outbox event, all in one transaction.
 */
@CommandHandler(CreateBookingCommand)
export class CreateBookingHandler implements ICommandHandler<CreateBookingCommand> {
  constructor(
    private readonly calendars: CalendarRepository,
    private readonly bookings: BookingRepository,
    private readonly externalCalendar: ExternalCalendarPort,
    private readonly directory: BookingDirectory,
    private readonly mailer: BookingMailer,
    private readonly journal: Journal,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, input, actor }: CreateBookingCommand): Promise<BookingView> {
    const start = parseStartDatetime(input.startDatetime);
    const timezone = checkRequestTimezone(input.timezone);
    const guest = this.guestOf(input);

    const calendar = isUuid(input.eventTypeId) ? await this.calendars.find(accountId, input.eventTypeId) : null;
    if (!calendar || !calendar.isActive) throw new BookingReferenceNotFoundError('event_type_id', 'No active calendar of the account has this event_type_id.');
    let profile: ContactBookingProfile | null = null;
    if (input.contactId) {
      profile = isUuid(input.contactId) ? await this.directory.contact(accountId, input.contactId) : null;
      if (!profile) throw new BookingReferenceNotFoundError('contact_id', 'No contact of the account has this contact_id.');
    }
    const members = await this.directory.teamMembers(accountId);
    const requestedHost = input.hostId ? this.memberOf(members, input.hostId) : null;

    const now = this.clock.now();
    checkBookingWindow(calendar, start, now);
    if (profile && !profile.email) throw new BookingValidationError('contact_id', 'contact_without_email', 'The contact has no email address.');
    const answers = checkFormResponses(calendar.questions, input.formResponses);
    if (profile?.archived) throw new BookingRuleViolationError('contact_archived', 'The contact is archived.');

    const activeIds = new Set(members.filter((member) => member.isActive).map((member) => member.id));
    const hosts = calendar.hostIds.filter((id) => activeIds.has(id));
    if (hosts.length === 0) throw new BookingRuleViolationError('calendar_without_hosts', 'The calendar has no active host.');
    if (requestedHost && !hosts.includes(requestedHost.id)) throw new BookingRuleViolationError('host_not_on_calendar', 'host_id is not an active host of this calendar.');

    return this.unitOfWork.run(async () => {
      if (!profile) profile = await this.guestContact(accountId, guest as BookingGuest, actor);
      if (calendar.requiresQualifiedLead && !(await this.isQualified(accountId, profile))) {
        throw new BookingRuleViolationError('lead_not_qualified', 'This calendar is reserved to qualified leads (in an open pipeline stage, not disqualified).');
      }
      await this.bookings.lockContactOnCalendar(accountId, calendar.id, profile.id);
      const existing = await this.bookings.findUpcomingForContact(accountId, calendar.id, profile.id, now);
      if (existing) throw new AlreadyBookedError(existing);

      const candidates = requestedHost ? [requestedHost.id] : hosts;
      await this.bookings.lockHosts(accountId, candidates);
      const slots = await this.evaluate(accountId, calendar, candidates, start);
      const hostId = requestedHost ? this.requested(slots[0], calendar) : await this.assign(accountId, calendar, slots, profile, now);

      const booking: BookingState = {
        id: newId(),
        accountId,
        calendarId: calendar.id,
        contactId: profile.id,
        hostId,
        meetingLink: calendar.meetingLink,
        start,
        end: endOf(calendar, start),
        status: 'confirmed',
        timezone,
        guestName: trimmed(input.guestName),
        guestEmail: guest?.email ?? (input.guestEmail ? normalizeEmail(input.guestEmail) : null),
        guestPhone: trimmed(input.guestPhone),
        notes: trimmed(input.notes),
        formResponses: answers,
        cancelledAt: null,
        cancelledBy: null,
        archivedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      await this.bookings.insert(booking);
      await this.externalCalendar.addEvent(accountId, {
        bookingId: booking.id,
        calendarId: calendar.id,
        hostId,
        start: booking.start,
        end: booking.end,
        title: `${calendar.name} — ${[profile.first_name, profile.last_name].filter(Boolean).join(' ') || profile.email || booking.guestName || ''}`.trim(),
      });
      const host = members.find((member) => member.id === hostId) as BookingTeamMember;
      const bookerName = [profile.first_name, profile.last_name].filter(Boolean).join(' ') || booking.guestName;
      await this.mailer.queue(accountId, bookingNotification('created', calendar, booking, host.email, { name: bookerName, email: profile.email }));
      await this.journal.record(
        accountId,
        [{ contactId: booking.contactId, type: BOOKING_EVENTS.created, actor, data: { booking_id: booking.id, event_type_id: calendar.id, host_id: hostId, start_datetime: booking.start.toISOString() } }],
        [bookingEvent(BOOKING_EVENTS.created, booking, actor, now)],
      );
      return toBookingView(booking);
    });
  }

  /** The guest of a request without `contact_id` (400 `contact_or_guest_required`, `guest_email` `invalid_format`); null with a contact. */
  private guestOf(input: CreateBookingInput): BookingGuest | null {
    if (input.contactId) return null;
    const name = trimmed(input.guestName);
    const rawEmail = trimmed(input.guestEmail);
    if (!name || !rawEmail) {
      throw new BookingValidationError('contact_id', 'contact_or_guest_required', 'Give contact_id, or guest_name and guest_email.');
    }
    const email = normalizeEmail(rawEmail);
    if (!email) throw new BookingValidationError('guest_email', 'invalid_format', 'guest_email is not an email address.');
    return { name, email, phone: trimmed(input.guestPhone) };
  }

  private memberOf(members: readonly BookingTeamMember[], hostId: string): BookingTeamMember {
    const member = isUuid(hostId) ? members.find((candidate) => candidate.id.toLowerCase() === hostId.toLowerCase()) : undefined;
    if (!member) throw new BookingReferenceNotFoundError('host_id', 'No team member of the account has this host_id.');
    return member;
  }

  private async guestContact(accountId: AccountId, guest: BookingGuest, actor: CreateBookingCommand['actor']): Promise<ContactBookingProfile> {
    const contactId = await this.directory.findOrCreateGuest(accountId, guest, actor);
    const profile = await this.directory.contact(accountId, contactId);
    if (!profile) throw new BookingReferenceNotFoundError('contact_id', 'The guest contact could not be read.');
    if (profile.archived) throw new BookingRuleViolationError('contact_archived', 'The contact with this guest_email is archived.');
    return profile;
  }

  private async isQualified(accountId: AccountId, profile: ContactBookingProfile): Promise<boolean> {
    if (profile.disqualified || !profile.stage_id) return false;
    return (await this.directory.stageIsOpen(accountId, profile.stage_id)) === true;
  }

  /**
   * Causes and seats of each candidate host at `[start, start + duration)`: 3 to 4 indexed queries whatever
   * the number of hosts. A booking of the host overlapping the slot is `other_booking` unless it is a seat
   * of the host's group session of this calendar at this very start (`capacity` above 1), which the new
   * booking joins; on a one-seat calendar every overlapping booking, the same slot included, is `other_booking`.
   */
  private async evaluate(accountId: AccountId, calendar: Calendar, hostIds: readonly string[], start: Date): Promise<HostSlot[]> {
    const end = endOf(calendar, start);
    const common: HostUnavailableCause[] = hoursCauses(calendar, start);
    const day = localDay(calendar, start);
    // Sequential: the queries share the transaction's single connection.
    const overlapping = await this.bookings.overlapping(accountId, hostIds, start, end);
    const busy = await this.externalCalendar.busyTimes(accountId, hostIds, start, end);
    const sessions = calendar.dailyMax === null ? new Map<string, number>() : await this.bookings.sessionsPerHost(accountId, calendar.id, hostIds, day.from, day.to);
    return hostIds.map((hostId) => {
      const mine = overlapping.filter((booking) => booking.hostId === hostId);
      const seats = calendar.capacity > 1 ? mine.filter((booking) => booking.calendarId === calendar.id && booking.start.getTime() === start.getTime()) : [];
      const causes = new Set<HostUnavailableCause>(common);
      if (mine.length > seats.length) causes.add('other_booking');
      for (const period of busy) if (period.hostId === hostId) causes.add(period.cause);
      if (calendar.dailyMax !== null && seats.length === 0 && (sessions.get(hostId) ?? 0) >= calendar.dailyMax) causes.add('daily_max');
      return { hostId, causes: HOST_UNAVAILABLE_CAUSES.filter((cause) => causes.has(cause)), seatsTaken: seats.length };
    });
  }

  /** The requested host: honoured or rejected, never replaced (422 `host_unavailable` with causes, then `slot_unavailable` for a full group session). */
  private requested(slot: HostSlot, calendar: Calendar): string {
    if (slot.causes.length > 0) throw new BookingRuleViolationError('host_unavailable', 'The host is not available at this time.', { causes: slot.causes });
    if (slot.seatsTaken >= calendar.capacity) throw new BookingRuleViolationError('slot_unavailable', 'Every seat of this slot is taken.');
    return slot.hostId;
  }

  /**
   * Sales rep, else a host whose session has seats left, else the fair rotation. No host available: 422
   * `slot_unavailable` (not `host_unavailable`: the request named no host, and each host may fail for its
   * own reasons), with the union of the hosts' causes in `details.causes` when there is any.
   */
  private async assign(accountId: AccountId, calendar: Calendar, slots: HostSlot[], profile: ContactBookingProfile, now: Date): Promise<string> {
    const available = slots.filter((slot) => slot.causes.length === 0 && slot.seatsTaken < calendar.capacity);
    if (available.length === 0) {
      const causes = HOST_UNAVAILABLE_CAUSES.filter((cause) => slots.some((slot) => slot.causes.includes(cause)));
      throw new BookingRuleViolationError('slot_unavailable', 'No host of the calendar is available at this time.', causes.length > 0 ? { causes } : {});
    }
    const rep = profile.sales_rep_id?.toLowerCase();
    const repSlot = rep ? available.find((slot) => slot.hostId.toLowerCase() === rep) : undefined;
    if (repSlot) return repSlot.hostId;
    const joining = available.filter((slot) => slot.seatsTaken > 0).sort((a, b) => b.seatsTaken - a.seatsTaken || a.hostId.localeCompare(b.hostId));
    if (joining.length > 0) return joining[0].hostId;
    const loads = new Map((await this.bookings.loads(accountId, calendar.id, available.map((slot) => slot.hostId), now)).map((load) => [load.hostId, load]));
    const ranked = [...available].sort((a, b) => {
      const la = loads.get(a.hostId);
      const lb = loads.get(b.hostId);
      const upcoming = (la?.upcoming ?? 0) - (lb?.upcoming ?? 0);
      if (upcoming !== 0) return upcoming;
      const last = (la?.lastBookedAt?.getTime() ?? 0) - (lb?.lastBookedAt?.getTime() ?? 0);
      return last !== 0 ? last : a.hostId.localeCompare(b.hostId);
    });
    return ranked[0].hostId;
  }
}
