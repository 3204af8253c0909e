import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { BookingOutcome, BookingView } from './bookings.views';

/**
 * Records what happened at a past booking (operator-api › `POST /admin/v1/accounts/{id}/bookings/{booking_id}/outcome`):
 * a `confirmed` booking whose start is at or before now becomes `completed` or `no_show`, with a
 * `booking_outcome_recorded` activity entry and outbox event. 404 `resource_not_found` (missing, archived,
 * another account's, non-UUID id); 422 `business_rule_violation` reason `booking_not_confirmed`
 * (cancelled, or an outcome already recorded) or `booking_not_started` (start still in the future).
 */
export class SetBookingOutcomeCommand extends Command<BookingView> {
  constructor(
    readonly accountId: AccountId,
    readonly bookingId: string,
    readonly outcome: BookingOutcome,
    readonly actor: Actor,
  ) {
    super();
  }
}
