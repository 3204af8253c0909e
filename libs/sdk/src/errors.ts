/**
 * An answer of the API outside 2xx, thrown by every call of the client (public API v1 › Errors).
 *
 * Built from the standard envelope (`code`, `message`, `details`, `type`, `doc_url`, `request_id`) or
 * from the simplified body of lead capture 422 and of the per-IP 429 (no `type`, no `doc_url`: null
 * here). A body that is not a Leadflow envelope (an HTML page of a proxy) gives `code` `http_<status>`.
 */
export class LeadflowApiError extends Error {
  override readonly name = 'LeadflowApiError';
  /** HTTP status (400 to 599). */
  readonly status: number;
  /** Stable error code (`validation_error`, `rate_limit_exceeded`, …); `http_<status>` without an envelope. */
  readonly code: string;
  /** An object for a single cause, an array of `{ field, reason, message? }` for field validation errors, or null. */
  readonly details: unknown;
  /** Error family derived from the status (`invalid_request_error`, …); null on simplified bodies. */
  readonly type: string | null;
  /** `<base_url>/docs/errors#<code>`: what the code means and what to do; null on simplified bodies. */
  readonly doc_url: string | null;
  /** The request id (body `request_id`, else header `X-Request-ID`): quote it to support. */
  readonly request_id: string | null;
  /** Seconds to wait before retrying (header `Retry-After`, else `details.retry_after_seconds`); null when not given. */
  readonly retry_after_seconds: number | null;
  /** The parsed body as received (JSON, or text when it is not JSON). */
  readonly body: unknown;
  /** Response headers. */
  readonly headers: Headers;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: unknown;
    type?: string | null;
    doc_url?: string | null;
    request_id?: string | null;
    retry_after_seconds?: number | null;
    body?: unknown;
    headers?: Headers;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? null;
    this.type = init.type ?? null;
    this.doc_url = init.doc_url ?? null;
    this.request_id = init.request_id ?? null;
    this.retry_after_seconds = init.retry_after_seconds ?? null;
    this.body = init.body;
    this.headers = init.headers ?? new Headers();
  }

  /**
   * The error for `response`, whose body is `body` (already parsed by openapi-fetch: JSON, or the text
   * when it was not JSON).
   */
  static fromResponse(response: Response, body: unknown): LeadflowApiError {
    const envelope = isRecord(body) ? body : {};
    const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
    const details = envelope.details ?? null;
    const retryAfterHeader = parseRetryAfterSeconds(response.headers.get('retry-after'), Date.now());
    const retryAfterDetails = isRecord(details) && typeof details.retry_after_seconds === 'number' ? details.retry_after_seconds : null;
    const code = text(envelope.code) ?? `http_${response.status}`;
    const fallbackMessage = typeof body === 'string' && body.length > 0 ? body.slice(0, 200) : `HTTP ${response.status} ${response.statusText}`.trim();
    return new LeadflowApiError({
      status: response.status,
      code,
      message: text(envelope.message) ?? fallbackMessage,
      details,
      type: text(envelope.type),
      doc_url: text(envelope.doc_url),
      request_id: text(envelope.request_id) ?? response.headers.get('x-request-id'),
      retry_after_seconds: retryAfterHeader ?? retryAfterDetails,
      body,
      headers: response.headers,
    });
  }
}

/**
 * Seconds to wait from a `Retry-After` value: delta-seconds (`"30"`) or an HTTP date
 * (`"Wed, 25 Nov 2026 01:00:00 GMT"`, counted from `nowMs`, never negative). Null when absent or unreadable.
 */
export function parseRetryAfterSeconds(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/[a-z]/i.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
