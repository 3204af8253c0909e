import { Command, Query } from '@nestjs/cqrs';
import type { AccountId, Actor, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { BookingView } from '@leadflow/bookings-contracts';
import type { BookingListFilter } from '../ports/bookings.repository.port';

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

/** Archives the bookings of deleted contacts (consumer of `contact_deleted`). */
export class ArchiveContactBookingsCommand extends Command<number> {
  constructor(
    readonly accountId: AccountId,
    readonly contactIds: readonly string[],
  ) {
    super();
  }
}

/** `GET /v1/bookings`. */
export class ListBookingsQuery extends Query<Page<BookingView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: BookingListFilter,
    readonly page: { limit: number; after: KeysetPosition | null },
  ) {
    super();
  }
}
