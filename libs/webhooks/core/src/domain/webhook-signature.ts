import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Outbound signature (operator-api › Decisions › Outbound webhook signature), the same format as the
 * inbound one: `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed
 * by the subscription secret (the 64 hex characters as UTF-8 text, exactly as shown at creation).
 */
export function webhookSignature(secret: string, rawBody: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/**
 * Receiver-side check (documentation and tests): true when `header` carries a `v1` matching the body
 * and its `t` is within `toleranceSeconds` of `nowSeconds`.
 */
export function verifyWebhookSignature(secret: string, rawBody: string, header: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
