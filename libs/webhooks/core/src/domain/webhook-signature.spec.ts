import { createHmac } from 'node:crypto';
import { verifyWebhookSignature, webhookSignature } from './webhook-signature';

describe('webhook signature (X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<raw body>", secret)>)', () => {
  const secret = 'a'.repeat(64);
  const body = '{"event":"lead_created","id":"d1"}';

  it('signs "<t>.<raw body>" with HMAC-SHA256 keyed by the secret, hex encoded', () => {
    const expected = createHmac('sha256', secret).update(`1767225600.${body}`).digest('hex');
    expect(webhookSignature(secret, body, 1767225600)).toBe(`t=1767225600,v1=${expected}`);
  });

  it('verifies a signature within the tolerance and refuses another body, secret or an old timestamp', () => {
    const header = webhookSignature(secret, body, 1000);
    expect(verifyWebhookSignature(secret, body, header, 1100)).toBe(true);
    expect(verifyWebhookSignature(secret, `${body} `, header, 1100)).toBe(false);
    expect(verifyWebhookSignature('b'.repeat(64), body, header, 1100)).toBe(false);
    expect(verifyWebhookSignature(secret, body, header, 1000 + 301)).toBe(false);
    expect(verifyWebhookSignature(secret, body, 'garbage', 1000)).toBe(false);
  });
});
