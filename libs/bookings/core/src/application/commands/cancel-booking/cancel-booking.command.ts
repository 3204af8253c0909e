import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { BookingView } from '@leadflow/bookings-contracts';

/** `DELETE /v1/bookings/{id}`: see CancelBookingHandler. */
export class CancelBookingCommand extends Command<BookingView> {
  constructor(
    readonly accountId: AccountId,
    readonly bookingId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
