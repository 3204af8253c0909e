import { BusinessRuleViolationError, DomainError, ResourceNotFoundError } from '@leadflow/shared-kernel';

/**
 * Errors of the bookings context: DomainError subclasses (`@leadflow/shared-kernel`) with stable codes
 * from the spec; the HTTP status comes from the code (shared-platform's error catalog).
 * public-api-v1 › Endpoints › Bookings (rejection table).
 */

/** 400 `validation_error` with a single-cause object `details: { field, reason, ...extra }` (slot_in_past, outside_window, off_cadence, invalid_timezone…). */
export class BookingValidationError extends DomainError {
  constructor(field: string, reason: string, message: string, extra: Record<string, unknown> = {}) {
    super('validation_error', message, { field, reason, ...extra });
  }
}

/** 404 `resource_not_found` with `details.field` (`event_type_id`, `contact_id`, `host_id`) or `details.resource` (`booking`). */
export class BookingReferenceNotFoundError extends ResourceNotFoundError {
  constructor(field: 'event_type_id' | 'contact_id' | 'host_id', message: string) {
    super('resource_not_found', message, { field });
  }
}

export class BookingNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('resource_not_found', 'No such booking.', { resource: 'booking' });
  }
}

/** 409 `duplicate_resource` reason `already_booked` with `details.existing_booking_id`. */
export class AlreadyBookedError extends DomainError {
  constructor(existingBookingId: string) {
    super('duplicate_resource', 'The contact already has an upcoming booking on this calendar.', {
      reason: 'already_booked',
      existing_booking_id: existingBookingId,
    });
  }
}

/** 422 `business_rule_violation` with `details.reason` (calendar_without_hosts, host_unavailable with `causes`…). */
export class BookingRuleViolationError extends BusinessRuleViolationError {}
