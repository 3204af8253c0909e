import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { BOOKING_EVENTS, BookingView } from '@leadflow/bookings-contracts';
import { BookingNotFoundError, BookingRuleViolationError } from '../../../domain/bookings.errors';
import { bookingNotification } from '../../booking-email';
import { BookingDirectory, BookingMailer } from '../../ports/booking-collaborators.port';
import { BookingRepository, CalendarRepository } from '../../ports/bookings.repository.port';
import { ExternalCalendarPort } from '../../ports/external-calendar.port';
import { bookingEvent, toBookingView } from '../../views';
import { CancelBookingCommand } from './cancel-booking.command';

/** Who cancelled, stored in `cancelled_by`: a cancellation through the public API is made by an integration. */
export const CANCELLED_BY_INTEGRATION = 'integration';

/**
 * `DELETE /v1/bookings/{id}` (public-api-v1 › States › Booking, confirmed → cancelled): soft cancel under a
 * row lock. 404 `resource_not_found` (missing, archived, another account's, non-UUID id); 422
 * `business_rule_violation` `already_cancelled` (cancelled) or `booking_not_cancellable` (completed,
 * no_show). In one transaction: status `cancelled`, `cancelled_at` now, `cancelled_by` `integration`; the
 * host's calendar event removed (ExternalCalendarPort); the host notified (email queued, skipped without a
 * sender); a `booking_cancelled` activity entry (actor type `integration`) and outbox event.
 */
@CommandHandler(CancelBookingCommand)
export class CancelBookingHandler implements ICommandHandler<CancelBookingCommand> {
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

  execute({ accountId, bookingId, actor }: CancelBookingCommand): Promise<BookingView> {
    return this.unitOfWork.run(async () => {
      const booking = await this.bookings.find(accountId, bookingId, { lock: true });
      if (!booking) throw new BookingNotFoundError();
      if (booking.status === 'cancelled') throw new BookingRuleViolationError('already_cancelled', 'The booking is already cancelled.');
      if (booking.status !== 'confirmed') throw new BookingRuleViolationError('booking_not_cancellable', `A ${booking.status} booking cannot be cancelled.`);
      const now = this.clock.now();
      const integration = { ...actor, type: 'integration' as const };
      const cancelled = { ...booking, status: 'cancelled' as const, cancelledAt: now, cancelledBy: CANCELLED_BY_INTEGRATION, updatedAt: now };
      await this.bookings.update(cancelled);
      await this.externalCalendar.removeEvent(accountId, booking.id);
      const calendar = await this.calendars.find(accountId, booking.calendarId);
      const host = (await this.directory.teamMembers(accountId)).find((member) => member.id === booking.hostId);
      if (calendar && host) {
        const contact = await this.directory.contact(accountId, booking.contactId);
        const name = [contact?.first_name, contact?.last_name].filter(Boolean).join(' ') || booking.guestName;
        await this.mailer.queue(accountId, bookingNotification('cancelled', calendar, cancelled, host.email, { name, email: contact?.email ?? booking.guestEmail }));
      }
      await this.journal.record(
        accountId,
        [{ contactId: booking.contactId, type: BOOKING_EVENTS.cancelled, actor: integration, data: { booking_id: booking.id, cancelled_by: CANCELLED_BY_INTEGRATION } }],
        [bookingEvent(BOOKING_EVENTS.cancelled, cancelled, integration, now)],
      );
      return toBookingView(cancelled);
    });
  }
}
