import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Outbound signature (operator-api › Decisions › Outbound webhook signature), the same format as the
 * inbound one: `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed
 * by the subscription secret (the 64 hex characters as UTF-8 text, exactly as shown at creation).
 * During a secret rotation (24 h) the header carries one `v1` per secret, the new one first
 * (`t=…,v1=<new>,v1=<old>`, Stripe's convention): a receiver accepts the delivery when any `v1` matches.
 */
export function webhookSignature(secret: string | readonly string[], rawBody: string, unixSeconds: number): string {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const v1 = secrets.map((key) => `v1=${createHmac('sha256', key).update(`${unixSeconds}.${rawBody}`).digest('hex')}`);
  return [`t=${unixSeconds}`, ...v1].join(',');
}

/**
 * Receiver-side check (documentation and tests): true when `header` carries a `v1` matching the body
 * and its `t` is within `toleranceSeconds` of `nowSeconds`.
 */
export function verifyWebhookSignature(secret: string, rawBody: string, header: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = header.split(',').map((part) => part.trim().split('=', 2) as [string, string]);
  const t = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return parts.some(([name, value]) => name === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '') && timingSafeEqual(expected, Buffer.from(value, 'hex')));
}
