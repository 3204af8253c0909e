/**
 * Errors of the bookings context: DomainError subclasses (`@leadflow/shared-kernel`) with stable codes
 * from the spec; the HTTP status comes from the code (shared-platform's error catalog).
 */
export {};
