import { DomainError, ResourceNotFoundError, ValidationFailedError } from '@leadflow/shared-kernel';

/**
 * Errors of the events context: DomainError subclasses (`@leadflow/shared-kernel`) with stable codes
 * from the spec; the HTTP status comes from the code (shared-platform's error catalog).
 */

/** 401 `invalid_signature`: an `X-Service-Signature` header was sent and is malformed, outside the window or wrong. */
export class InvalidSignatureError extends DomainError {
  constructor(reason: 'malformed' | 'expired' | 'mismatch') {
    super(
      'invalid_signature',
      reason === 'malformed'
        ? 'X-Service-Signature must read t=<unix seconds>,v1=<hex HMAC-SHA256>.'
        : reason === 'expired'
          ? 'The X-Service-Signature timestamp is outside the 5 minute window.'
          : 'The X-Service-Signature does not match the request body.',
      { reason },
    );
  }
}

/** 404 `contact_not_found` (POST /v1/events): no contact matches and `create_if_missing` is false. */
export class EventContactNotFoundError extends ResourceNotFoundError {
  constructor() {
    super('contact_not_found', 'No contact matches these identifiers and contact.create_if_missing is false.', { resource: 'contact' });
  }
}

/** 404 `resource_not_found` with `details.resource` (POST /v1/event-registrations). */
export class RegistrationResourceNotFoundError extends ResourceNotFoundError {
  constructor(resource: 'contact' | 'event' | 'edition') {
    super('resource_not_found', `No such ${resource}.`, { resource });
  }
}

/** Rules of `POST /v1/event-registrations` refused with 422 `business_rule_violation` and `details.rule`. */
export type RegistrationRule = 'event_not_published' | 'event_closed' | 'event_edition_ended';

/** 422 `business_rule_violation` with `details.rule`. */
export class RegistrationRuleViolationError extends DomainError {
  constructor(readonly rule: RegistrationRule, message: string) {
    super('business_rule_violation', message, { rule });
  }
}

/** 400 `validation_error` on one field. */
export function fieldError(field: string, reason: string, message: string): ValidationFailedError {
  return new ValidationFailedError([{ field, reason, message }]);
}
