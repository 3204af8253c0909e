import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { BOOKING_EVENTS, BookingView, SetBookingOutcomeCommand } from '@leadflow/bookings-contracts';
import { BookingNotFoundError, BookingRuleViolationError } from '../../../domain/bookings.errors';
import { BookingRepository } from '../../ports/bookings.repository.port';
import { bookingEvent, toBookingView } from '../../views';

/**
 * Operator outcome of a booking (operator-api › `POST /admin/v1/accounts/{id}/bookings/{booking_id}/outcome`),
 * under a row lock; rules in {@link SetBookingOutcomeCommand}. In short: `confirmed` → the outcome, whether
 * the start has passed or not; the same outcome again → the booking unchanged, nothing written; the other
 * outcome → replaced (a correction); `cancelled` → 422 `already_cancelled`, nothing written.
 */
@CommandHandler(SetBookingOutcomeCommand)
export class SetBookingOutcomeHandler implements ICommandHandler<SetBookingOutcomeCommand> {
  constructor(
    private readonly bookings: BookingRepository,
    private readonly journal: Journal,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute({ accountId, bookingId, outcome, actor }: SetBookingOutcomeCommand): Promise<BookingView> {
    return this.unitOfWork.run(async () => {
      const booking = await this.bookings.find(accountId, bookingId, { lock: true });
      if (!booking) throw new BookingNotFoundError();
      if (booking.status === 'cancelled') throw new BookingRuleViolationError('already_cancelled', 'The booking is cancelled: it takes no outcome.');
      if (booking.status === outcome) return toBookingView(booking);
      const now = this.clock.now();
      const updated = { ...booking, status: outcome, updatedAt: now };
      await this.bookings.update(updated);
      const previous = booking.status;
      await this.journal.record(
        accountId,
        [{ contactId: booking.contactId, type: BOOKING_EVENTS.outcomeRecorded, actor, data: { booking_id: booking.id, status: outcome, previous_status: previous } }],
        [bookingEvent(BOOKING_EVENTS.outcomeRecorded, updated, actor, now, { previous_status: previous })],
      );
      return toBookingView(updated);
    });
  }
}
