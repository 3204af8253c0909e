/**
 * Every business refusal is a DomainError with a stable public `code` (the spec's error codes,
 * `public-api-v1.md` › Errors) and `details` (an object for a single cause, an array of
 * `{ field, reason }` for field validation, or null). The HTTP status and envelope `type` are derived
 * from the code by shared-platform's error envelope filter; domain code never builds responses.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: DomainErrorDetails = null,
    readonly options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export interface DomainErrorOptions {
  /** Overrides the status the code maps to (only where the spec uses one code under two statuses). */
  status?: number;
  /** Members placed beside the envelope's own, e.g. `data` with the existing contact of a 409 `duplicate_contact`. */
  extra?: Record<string, unknown>;
  /** The simplified body of lead capture 422 and IP 429: no `type`, no `doc_url`. */
  simplified?: boolean;
  /** Response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
}

export interface FieldViolation {
  field: string;
  reason: string;
  message?: string;
}

export type DomainErrorDetails = Record<string, unknown> | FieldViolation[] | null;

/** 400 `validation_error` with `details` an array of `{ field, reason }`. */
export class ValidationFailedError extends DomainError {
  constructor(violations: FieldViolation[], message = 'The request is invalid.') {
    super('validation_error', message, violations);
  }
}

/** 400 `invalid_request` for a malformed query parameter, header or body, with `details.field` and `details.reason`. */
export class InvalidRequestError extends DomainError {
  constructor(field: string, reason: string, message: string) {
    super('invalid_request', message, { field, reason });
  }
}

/** 404 for a resource that is missing or belongs to another account (the two answer alike). */
export class ResourceNotFoundError extends DomainError {
  constructor(
    code: 'not_found' | 'resource_not_found' | 'contact_not_found',
    message: string,
    details: DomainErrorDetails = null,
  ) {
    super(code, message, details);
  }
}

/** 422 `business_rule_violation` with `details.reason` and optional extra members. */
export class BusinessRuleViolationError extends DomainError {
  constructor(reason: string, message: string, extra: Record<string, unknown> = {}) {
    super('business_rule_violation', message, { reason, ...extra });
  }
}
