import { Actor, IntegrationEvent, newId } from '@leadflow/shared-kernel';
import type { BookingEventPayload, BookingView } from '@leadflow/bookings-contracts';
import type { BookingState } from './ports/bookings.repository.port';

const iso = (instant: Date | null): string | null => (instant ? instant.toISOString() : null);

/** The read shape of a booking (public-api-v1 › Booking). */
export function toBookingView(booking: BookingState): BookingView {
  return {
    id: booking.id,
    event_type_id: booking.calendarId,
    contact_id: booking.contactId,
    host_id: booking.hostId,
    meeting_link: booking.meetingLink,
    start_datetime: booking.start.toISOString(),
    end_datetime: booking.end.toISOString(),
    status: booking.status,
    timezone: booking.timezone,
    guest_name: booking.guestName,
    guest_email: booking.guestEmail,
    guest_phone: booking.guestPhone,
    notes: booking.notes,
    form_responses: booking.formResponses,
    cancelled_at: iso(booking.cancelledAt),
    cancelled_by: booking.cancelledBy,
    created_at: booking.createdAt.toISOString(),
    updated_at: booking.updatedAt.toISOString(),
  };
}

/** An outbox event about a booking; `extra` adds optional payload members (`previous_status`). */
export function bookingEvent(
  type: string,
  booking: BookingState,
  actor: Actor,
  now: Date,
  extra: Pick<BookingEventPayload, 'previous_status'> = {},
): IntegrationEvent<BookingEventPayload> {
  return {
    id: newId(),
    type,
    accountId: booking.accountId,
    occurredAt: now,
    actor,
    payload: { booking_id: booking.id, contact_id: booking.contactId, booking: toBookingView(booking), ...extra },
  };
}
