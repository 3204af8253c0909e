import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { standardWebhooksHeaders, toStandardWebhooksSecret } from './standard-webhooks';

describe('Standard Webhooks headers', () => {
  const secret = 'a1'.repeat(32);
  const body = '{"event":"lead_created","id":"msg_1"}';
  const t = Math.floor(Date.now() / 1000);

  it('signs "{id}.{timestamp}.{body}" keyed by the secret\'s 64 characters, and the official package verifies it with whsec_ + base64 of them', () => {
    const headers = standardWebhooksHeaders('msg_1', t, body, [secret]);
    expect(headers).toEqual({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(t), 'webhook-signature': `v1,${createHmac('sha256', secret).update(`msg_1.${t}.${body}`).digest('base64')}` });
    expect(toStandardWebhooksSecret(secret)).toBe(`whsec_${Buffer.from(secret).toString('base64')}`);
    expect(new Webhook(toStandardWebhooksSecret(secret)).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('lists one space-separated entry per secret (rotation), each verifying on its own', () => {
    const other = 'b2'.repeat(32);
    const headers = standardWebhooksHeaders('msg_1', t, body, [other, secret]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const key of [other, secret]) expect(new Webhook(toStandardWebhooksSecret(key)).verify(body, headers)).toBeDefined();
    expect(() => new Webhook(toStandardWebhooksSecret('c3'.repeat(32))).verify(body, headers)).toThrow();
  });
});
