import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { BookingView } from '@leadflow/bookings-contracts';

/** The body of `POST /v1/bookings` after DTO validation (types checked, values not yet). */
export interface CreateBookingInput {
  eventTypeId: string;
  startDatetime: string;
  contactId?: string | null;
  guestName?: string | null;
  guestEmail?: string | null;
  guestPhone?: string | null;
  hostId?: string | null;
  timezone?: string | null;
  notes?: string | null;
  formResponses?: Record<string, unknown> | null;
}

/** `POST /v1/bookings`: see CreateBookingHandler. */
export class CreateBookingCommand extends Command<BookingView> {
  constructor(
    readonly accountId: AccountId,
    readonly input: CreateBookingInput,
    readonly actor: Actor,
  ) {
    super();
  }
}
