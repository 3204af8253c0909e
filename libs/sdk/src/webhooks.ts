import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/schema';

/** Body of a webhook delivery (schema `WebhookPayload`): `event`, `id` (the delivery id), `created_at`, `data`, `changes`. */
export type WebhookEvent = components['schemas']['WebhookPayload'];

/** Headers as a fetch `Headers`, Node's `IncomingHttpHeaders`, or any record (names matched case-insensitively). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Input of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** The raw body exactly as received (string or bytes), never a re-serialised object. */
  payload: string | Uint8Array;
  /** The delivery's request headers. */
  headers: WebhookHeaders;
  /**
   * The subscription secret shown once by `POST /v1/webhooks` (64 hex characters). Several secrets
   * (during a rotation) are accepted: a signature made with any of them verifies.
   */
  secret: string | readonly string[];
  /** Accepted distance between the signed timestamp and now, in seconds (default 300, the API's window). */
  toleranceSeconds?: number;
  /** The current time (default: now); for tests. */
  now?: Date;
}

/** Why a delivery failed verification. */
export type WebhookVerificationReason = 'missing_signature' | 'malformed' | 'expired' | 'mismatch' | 'invalid_payload';

/** Thrown by {@link verifyWebhook}: answer the delivery with a 4xx and do not act on it. */
export class LeadflowWebhookVerificationError extends Error {
  override readonly name = 'LeadflowWebhookVerificationError';
  constructor(
    /** `missing_signature`, `malformed`, `expired` (timestamp outside the tolerance), `mismatch`, `invalid_payload` (not JSON). */
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** Leadflow's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const LEADFLOW_SIGNATURE_HEADER = 'x-service-signature';
/** Standard Webhooks headers (https://www.standardwebhooks.com). */
export const STANDARD_WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Verifies a webhook delivery and returns its parsed body.
 *
 * - `X-Service-Signature: t=<unix>,v1=<hex>` (one `t`, one or more `v1`, several during a secret
 *   rotation): some `v1` must equal the hex HMAC-SHA256 of `"<t>.<raw body>"` and `t` be within
 *   `toleranceSeconds` of now.
 * - When the delivery also carries the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 *   `webhook-signature: v1,<base64> …`), they are verified too: some `v1` must equal the base64
 *   HMAC-SHA256 of `"<webhook-id>.<webhook-timestamp>.<raw body>"`, with the same time window.
 * - The key is the secret's UTF-8 text (the 64 hex characters as shown at creation), or the decoded
 *   bytes of its Standard Webhooks form `whsec_<base64>`: both forms of a secret verify both schemes.
 * - At least one of the two schemes must be present; every scheme present must verify.
 *
 * Digests are compared in constant time (`timingSafeEqual`).
 *
 * @throws LeadflowWebhookVerificationError with `reason` `missing_signature`, `malformed`, `expired`,
 *   `mismatch` or `invalid_payload`.
 * @throws TypeError when `payload` is not a string or bytes (a parsed object cannot be verified).
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const { payload, headers } = options;
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) {
    throw new TypeError('verifyWebhook: payload must be the raw request body (string or bytes), not a parsed object');
  }
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const secrets = (typeof options.secret === 'string' ? [options.secret] : [...options.secret]).filter((secret) => secret.length > 0);
  if (secrets.length === 0) throw new TypeError('verifyWebhook: secret is empty');
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;

  const leadflow = headerOf(headers, LEADFLOW_SIGNATURE_HEADER);
  const standard = headerOf(headers, STANDARD_WEBHOOK_HEADERS.signature);
  if (leadflow === null && standard === null) {
    throw new LeadflowWebhookVerificationError('missing_signature', 'The delivery carries neither X-Service-Signature nor webhook-signature.');
  }
  if (leadflow !== null) verifyLeadflowSignature(leadflow, body, secrets, nowSeconds, tolerance);
  if (standard !== null) verifyStandardSignature(headers, standard, body, secrets, nowSeconds, tolerance);

  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new LeadflowWebhookVerificationError('invalid_payload', 'The signed body is not JSON.');
  }
}

function verifyLeadflowSignature(header: string, body: Buffer, secrets: string[], nowSeconds: number, tolerance: number): void {
  let timestamp: string | null = null;
  const digests: Buffer[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) return malformed('X-Service-Signature');
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return malformed('X-Service-Signature');
      timestamp = value;
    } else if (name === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return malformed('X-Service-Signature');
      digests.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === null || digests.length === 0) return malformed('X-Service-Signature');
  checkWindow(Number(timestamp), nowSeconds, tolerance, 'X-Service-Signature');
  const signed = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body]);
  const expected = secrets.map((secret) => createHmac('sha256', keyBytes(secret)).update(signed).digest());
  if (!anyMatches(expected, digests)) throw new LeadflowWebhookVerificationError('mismatch', 'X-Service-Signature does not match the body and secret.');
}

function verifyStandardSignature(headers: WebhookHeaders, header: string, body: Buffer, secrets: string[], nowSeconds: number, tolerance: number): void {
  const id = headerOf(headers, STANDARD_WEBHOOK_HEADERS.id);
  const timestamp = headerOf(headers, STANDARD_WEBHOOK_HEADERS.timestamp);
  if (id === null || id.length === 0 || timestamp === null || !/^\d{1,12}$/.test(timestamp)) return malformed('webhook-id / webhook-timestamp');
  const digests: Buffer[] = [];
  for (const entry of header.split(' ').filter((part) => part.length > 0)) {
    const separator = entry.indexOf(',');
    if (separator < 0) return malformed('webhook-signature');
    // Other versions (v1a: asymmetric signatures) are skipped, as the Standard Webhooks libraries do.
    if (entry.slice(0, separator) !== 'v1') continue;
    const value = entry.slice(separator + 1);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return malformed('webhook-signature');
    digests.push(Buffer.from(value, 'base64'));
  }
  if (digests.length === 0) return malformed('webhook-signature');
  checkWindow(Number(timestamp), nowSeconds, tolerance, 'webhook-timestamp');
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  const expected = secrets.map((secret) => createHmac('sha256', keyBytes(secret)).update(signed).digest());
  if (!anyMatches(expected, digests)) throw new LeadflowWebhookVerificationError('mismatch', 'webhook-signature does not match the body and secret.');
}

/**
 * The HMAC key of both schemes: a Leadflow secret (64 hex characters, as shown) keys with its UTF-8 text;
 * its Standard Webhooks form `whsec_<base64 of that text>` (what the official `standardwebhooks`
 * libraries take) keys with the decoded bytes, which are the same key.
 */
function keyBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

function checkWindow(signedAt: number, nowSeconds: number, tolerance: number, header: string): void {
  if (Math.abs(nowSeconds - signedAt) > tolerance) {
    throw new LeadflowWebhookVerificationError('expired', `${header}: timestamp ${signedAt} is more than ${tolerance} s away from now (${nowSeconds}).`);
  }
}

function anyMatches(expected: Buffer[], received: Buffer[]): boolean {
  let match = false;
  for (const digest of received) {
    for (const candidate of expected) {
      if (digest.length === candidate.length && timingSafeEqual(digest, candidate)) match = true;
    }
  }
  return match;
}

function malformed(header: string): never {
  throw new LeadflowWebhookVerificationError('malformed', `${header} is malformed.`);
}

function headerOf(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') return (headers as Headers).get(name);
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== name) continue;
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(name === STANDARD_WEBHOOK_HEADERS.signature ? ' ' : ',') : value;
  }
  return null;
}
