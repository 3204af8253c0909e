import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { BookingOutcome, BookingView } from './bookings.views';

/**
 * Records what happened at a booking (operator-api › `POST /admin/v1/accounts/{id}/bookings/{booking_id}/outcome`).
 * - `confirmed` → `completed` or `no_show`, whether its start has passed or not (staff close a booking
 *   early), with a `booking_outcome_recorded` activity entry and outbox event (`previous_status` in both).
 * - The same outcome again: 200 with the booking unchanged, nothing written (a retry is harmless).
 * - The other outcome (`completed` ↔ `no_show`): a correction, recorded like the first one (the latest
 *   outcome wins; `previous_status` names the one replaced).
 * - A booking with an outcome is no longer `confirmed`: it stops holding its host's time and its seat and
 *   stops being the contact's upcoming booking (it still counts among the host's sessions for `daily_max`);
 *   the public cancel gives 422 `booking_not_cancellable`.
 * Refusals: 404 `resource_not_found` (missing, archived, another account's, non-UUID id); 422
 * `business_rule_violation` reason `already_cancelled` (cancelled booking; nothing written).
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
