/** `Service-Version` header value of every response (public-api-v1 › Versioning). */
export const SERVICE_VERSION = 'v1';

/** Largest request body accepted; a larger one answers 413 `payload_too_large`. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Legacy host sunset (public-api-v1 › Versioning): from this instant on, `/api/v1/…` answers 308. */
export const LEGACY_SUNSET = new Date('2027-05-03T00:00:00.000Z');

/** When the legacy prefix was deprecated (announced twelve months before the sunset). */
export const LEGACY_DEPRECATED_AT = new Date('2026-05-03T00:00:00.000Z');
