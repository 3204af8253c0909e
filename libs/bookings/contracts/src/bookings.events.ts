import type { BookingStatus, BookingView } from './bookings.views';

/**
 * Integration events the bookings context writes to `platform.outbox`. `booking_created` and
 * `booking_cancelled` are public webhook names (webhook event catalog); `booking_outcome_recorded` is an
 * internal fact. Payload: {@link BookingEventPayload}.
 */
export const BOOKING_EVENTS = {
  created: 'booking_created',
  cancelled: 'booking_cancelled',
  outcomeRecorded: 'booking_outcome_recorded',
} as const;

export interface BookingEventPayload extends Record<string, unknown> {
  booking_id: string;
  contact_id: string;
  booking: BookingView;
  /** `booking_outcome_recorded` only: the status the outcome replaced (`confirmed`, or the other outcome when corrected). */
  previous_status?: BookingStatus;
}
