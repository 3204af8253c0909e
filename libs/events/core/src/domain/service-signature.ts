import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidSignatureError } from './events.errors';

/** Anti-replay window of `X-Service-Signature`, either direction (public-api-v1 › Limits: 5 minutes). */
export const SIGNATURE_WINDOW_SECONDS = 300;

const TIMESTAMP = /^\d{1,12}$/;
const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** `v1` of a body: hex HMAC-SHA256 of `<t>.<raw body>` keyed by the raw API key (public-api-v1 › Authentication 6). */
export function serviceSignature(secret: string, timestamp: number | string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * Checks `X-Service-Signature: t=<unix seconds>,v1=<hex>` (public-api-v1 › Authentication 6) strictly:
 * exactly one `t` (decimal seconds), one or more `v1` (64 hex digits; any may match, for a client
 * rotating keys), nothing else, optional spaces after commas; `t` within
 * {@link SIGNATURE_WINDOW_SECONDS} of `nowSeconds` in either direction; the digest compared in
 * constant time (`timingSafeEqual` on equal-length buffers). Throws 401 `invalid_signature`
 * (`details.reason` `malformed`, `expired` or `mismatch`).
 */
export function verifyServiceSignature(header: string, rawBody: string | Buffer, secret: string, nowSeconds: number): void {
  let timestamp: string | null = null;
  const digests: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) throw new InvalidSignatureError('malformed');
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't' && timestamp === null && TIMESTAMP.test(value)) timestamp = value;
    else if (name === 'v1' && HEX_DIGEST.test(value)) digests.push(value.toLowerCase());
    else throw new InvalidSignatureError('malformed');
  }
  if (timestamp === null || digests.length === 0) throw new InvalidSignatureError('malformed');
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) throw new InvalidSignatureError('expired');
  const expected = Buffer.from(serviceSignature(secret, timestamp, rawBody), 'hex');
  let matched = false;
  for (const digest of digests) {
    const given = Buffer.from(digest, 'hex');
    // Equal lengths by the pattern; checked anyway since timingSafeEqual throws on a mismatch.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new InvalidSignatureError('mismatch');
}
