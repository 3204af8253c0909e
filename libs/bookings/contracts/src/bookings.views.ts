/** States of a booking (public-api-v1 › States and transitions › Booking). */
export const BOOKING_STATUSES = ['confirmed', 'cancelled', 'completed', 'no_show'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Outcomes the operator records on a past booking. */
export const BOOKING_OUTCOMES = ['completed', 'no_show'] as const;
export type BookingOutcome = (typeof BOOKING_OUTCOMES)[number];

/**
 * A booking as the API reads it (public-api-v1 › Booking). Timestamps ISO 8601 UTC with milliseconds.
 * `end_datetime` = `start_datetime` + the calendar's duration (read only).
 */
export interface BookingView {
  id: string;
  /** The calendar. */
  event_type_id: string;
  contact_id: string;
  host_id: string;
  meeting_link: string | null;
  start_datetime: string;
  end_datetime: string;
  status: BookingStatus;
  /** The booker's IANA zone as given, or null. */
  timezone: string | null;
  guest_name: string | null;
  guest_email: string | null;
  guest_phone: string | null;
  notes: string | null;
  /** `{ <question id>: { value } }`. */
  form_responses: Record<string, { value: unknown }>;
  cancelled_at: string | null;
  /** `integration` when cancelled through the public API, `operator`…; null while not cancelled. */
  cancelled_by: string | null;
  created_at: string;
  updated_at: string;
}
