import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks headers (https://www.standardwebhooks.com, issue 15 item 1), sent beside
 * `X-Service-Signature` on every delivery:
 * - `webhook-id`: the delivery id (the payload `id`), the same on every attempt and redelivery;
 * - `webhook-timestamp`: unix seconds of the attempt;
 * - `webhook-signature`: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one entry per secret,
 *   space-separated (two during a secret rotation, the new secret first).
 *
 * Key mapping: a Leadflow secret is 64 hex characters and the HMAC key is those 64 characters as UTF-8
 * bytes (the same key as `X-Service-Signature`). In the Standard Webhooks secret format (`whsec_` + the
 * base64 of the key bytes), a Leadflow secret `s` is `"whsec_" + base64(utf8(s))`, which the official
 * `standardwebhooks` libraries accept as is.
 */
export function standardWebhooksHeaders(id: string, unixSeconds: number, rawBody: string, secrets: readonly string[]): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const signed = `${id}.${unixSeconds}.${rawBody}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': secrets.map((secret) => `v1,${createHmac('sha256', secret).update(signed).digest('base64')}`).join(' '),
  };
}

/** The Standard Webhooks form (`whsec_<base64>`) of a Leadflow secret, for receivers using the official libraries. */
export function toStandardWebhooksSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;
}
