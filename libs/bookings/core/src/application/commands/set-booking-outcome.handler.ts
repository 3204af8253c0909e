import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { BOOKING_EVENTS, BookingView, SetBookingOutcomeCommand } from '@leadflow/bookings-contracts';
import { BookingNotFoundError, BookingRuleViolationError } from '../../domain/bookings.errors';
import { BookingJournal, BookingUnitOfWork } from '../ports/booking-collaborators.port';
import { BookingRepository } from '../ports/bookings.repository.port';
import { bookingEvent, toBookingView } from '../views';

/** Operator outcome of a past booking: see {@link SetBookingOutcomeCommand}. */
@CommandHandler(SetBookingOutcomeCommand)
export class SetBookingOutcomeHandler implements ICommandHandler<SetBookingOutcomeCommand> {
  constructor(
    private readonly bookings: BookingRepository,
    private readonly journal: BookingJournal,
    private readonly unitOfWork: BookingUnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, bookingId, outcome, actor }: SetBookingOutcomeCommand): Promise<BookingView> {
    return this.unitOfWork.run(async () => {
      const booking = await this.bookings.find(accountId, bookingId, { lock: true });
      if (!booking) throw new BookingNotFoundError();
      if (booking.status !== 'confirmed') throw new BookingRuleViolationError('booking_not_confirmed', `The booking is ${booking.status}: only a confirmed booking gets an outcome.`);
      const now = this.clock.now();
      if (booking.start.getTime() > now.getTime()) throw new BookingRuleViolationError('booking_not_started', 'The booking has not started yet.');
      const updated = { ...booking, status: outcome, updatedAt: now };
      await this.bookings.update(updated);
      await this.journal.record(
        accountId,
        [{ contactId: booking.contactId, type: BOOKING_EVENTS.outcomeRecorded, actor, data: { booking_id: booking.id, status: outcome } }],
        [bookingEvent(BOOKING_EVENTS.outcomeRecorded, updated, actor, now)],
      );
      return toBookingView(updated);
    });
  }
}
