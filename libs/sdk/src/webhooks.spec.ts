import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { LeadflowWebhookVerificationError, verifyWebhook, VerifyWebhookOptions, WebhookVerificationReason } from './index';

/** A subscription secret as `POST /v1/webhooks` shows it: 64 hexadecimal characters. */
const SECRET = 'a3f1c2d4e5b6a7980123456789abcdef0123456789abcdef0123456789abcdef';
const OTHER_SECRET = 'b'.repeat(64);
const NOW = new Date('2026-11-25T01:00:00.000Z');
const T = Math.floor(NOW.getTime() / 1000);
const BODY = JSON.stringify({
  event: 'contact_created',
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  created_at: '2026-11-25T00:59:59.000Z',
  data: { id: 'c1', email: 'nadia.tremblay@example.com', system: null, actor: { type: null, id: null, name: 'full', via: 'api_key' } },
  changes: null,
});

/** Leadflow's scheme, written out independently of the SDK: `t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>`. */
const leadflowSignature = (body: string, secret = SECRET, t = T) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
/** Standard Webhooks' scheme: `v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>")>`. */
const standardSignature = (id: string, t: number, body: string, key: Buffer | string = SECRET) =>
  `v1,${createHmac('sha256', key).update(`${id}.${t}.${body}`).digest('base64')}`;
const standardHeaders = (body: string, secret: Buffer | string = SECRET, t = T, id = 'msg_0f8fad5b') => ({
  'webhook-id': id,
  'webhook-timestamp': String(t),
  'webhook-signature': standardSignature(id, t, body, secret),
});

function reasonOf(options: VerifyWebhookOptions): WebhookVerificationReason | 'verified' {
  try {
    verifyWebhook(options);
    return 'verified';
  } catch (error) {
    if (error instanceof LeadflowWebhookVerificationError) return error.reason;
    throw error;
  }
}

describe('verifyWebhook: X-Service-Signature', () => {
  it('a delivery signed with the secret verifies and answers its parsed body', () => {
    const event = verifyWebhook({ payload: BODY, headers: { 'X-Service-Signature': leadflowSignature(BODY) }, secret: SECRET, now: NOW });
    expect(event.event).toBe('contact_created');
    expect(event.data.actor.via).toBe('api_key');
  });

  it('accepts bytes, fetch Headers and Node header records (lower-case names)', () => {
    const signature = leadflowSignature(BODY);
    expect(reasonOf({ payload: Buffer.from(BODY), headers: { 'x-service-signature': signature }, secret: SECRET, now: NOW })).toBe('verified');
    expect(reasonOf({ payload: new TextEncoder().encode(BODY), headers: new Headers({ 'X-Service-Signature': signature }), secret: SECRET, now: NOW })).toBe('verified');
  });

  it('a body changed by one character is a mismatch', () => {
    const tampered = BODY.replace('nadia', 'nadja');
    expect(reasonOf({ payload: tampered, headers: { 'x-service-signature': leadflowSignature(BODY) }, secret: SECRET, now: NOW })).toBe('mismatch');
  });

  it('another secret is a mismatch; a list of secrets (rotation) verifies when one of them signed', () => {
    const headers = { 'x-service-signature': leadflowSignature(BODY) };
    expect(reasonOf({ payload: BODY, headers, secret: OTHER_SECRET, now: NOW })).toBe('mismatch');
    expect(reasonOf({ payload: BODY, headers, secret: [OTHER_SECRET, SECRET], now: NOW })).toBe('verified');
  });

  it('several v1 values (signed with two secrets): any match verifies', () => {
    const header = `${leadflowSignature(BODY, OTHER_SECRET)},v1=${leadflowSignature(BODY).split('v1=')[1]}`;
    expect(reasonOf({ payload: BODY, headers: { 'x-service-signature': header }, secret: SECRET, now: NOW })).toBe('verified');
  });

  it('a timestamp more than toleranceSeconds away (either direction) is expired; within it verifies', () => {
    const old = { 'x-service-signature': leadflowSignature(BODY, SECRET, T - 301) };
    const future = { 'x-service-signature': leadflowSignature(BODY, SECRET, T + 301) };
    expect(reasonOf({ payload: BODY, headers: old, secret: SECRET, now: NOW })).toBe('expired');
    expect(reasonOf({ payload: BODY, headers: future, secret: SECRET, now: NOW })).toBe('expired');
    expect(reasonOf({ payload: BODY, headers: old, secret: SECRET, now: NOW, toleranceSeconds: 600 })).toBe('verified');
  });

  it.each([
    ['no t', `v1=${'0'.repeat(64)}`],
    ['no v1', `t=${T}`],
    ['two t', `t=${T},t=${T},v1=${'0'.repeat(64)}`],
    ['short digest', `t=${T},v1=abc`],
    ['not key=value', 'garbage'],
  ])('a malformed header (%s) is malformed', (_case, header) => {
    expect(reasonOf({ payload: BODY, headers: { 'x-service-signature': header }, secret: SECRET, now: NOW })).toBe('malformed');
  });

  it('no signature header at all is missing_signature', () => {
    expect(reasonOf({ payload: BODY, headers: { 'content-type': 'application/json' }, secret: SECRET, now: NOW })).toBe('missing_signature');
  });

  it('a signed body that is not JSON is invalid_payload', () => {
    expect(reasonOf({ payload: 'not json', headers: { 'x-service-signature': leadflowSignature('not json') }, secret: SECRET, now: NOW })).toBe('invalid_payload');
  });

  it('a parsed object instead of the raw body is a TypeError (re-serialising would not verify)', () => {
    expect(() => verifyWebhook({ payload: JSON.parse(BODY), headers: { 'x-service-signature': leadflowSignature(BODY) }, secret: SECRET, now: NOW })).toThrow(TypeError);
  });
});

describe('verifyWebhook: Standard Webhooks headers', () => {
  it('a delivery carrying both schemes verifies only when both do', () => {
    const both = { 'x-service-signature': leadflowSignature(BODY), ...standardHeaders(BODY) };
    expect(reasonOf({ payload: BODY, headers: both, secret: SECRET, now: NOW })).toBe('verified');

    const badStandard = { ...both, 'webhook-signature': standardSignature('msg_0f8fad5b', T, BODY, OTHER_SECRET) };
    expect(reasonOf({ payload: BODY, headers: badStandard, secret: SECRET, now: NOW })).toBe('mismatch');

    const badLeadflow = { ...both, 'x-service-signature': leadflowSignature(BODY, OTHER_SECRET) };
    expect(reasonOf({ payload: BODY, headers: badLeadflow, secret: SECRET, now: NOW })).toBe('mismatch');
  });

  it('the standard headers alone verify; the id is part of what is signed', () => {
    const headers = standardHeaders(BODY);
    expect(reasonOf({ payload: BODY, headers, secret: SECRET, now: NOW })).toBe('verified');
    expect(reasonOf({ payload: BODY, headers: { ...headers, 'webhook-id': 'msg_other' }, secret: SECRET, now: NOW })).toBe('mismatch');
  });

  it('a space-separated list of signatures (rotation) verifies when one matches; unknown versions are skipped', () => {
    const headers = standardHeaders(BODY);
    const list = `v1a,AAAA ${standardSignature('msg_0f8fad5b', T, BODY, OTHER_SECRET)} ${headers['webhook-signature']}`;
    expect(reasonOf({ payload: BODY, headers: { ...headers, 'webhook-signature': list }, secret: SECRET, now: NOW })).toBe('verified');
  });

  it('a whsec_<base64> secret keys the HMAC with its decoded bytes', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    const secret = `whsec_${key.toString('base64')}`;
    expect(reasonOf({ payload: BODY, headers: standardHeaders(BODY, key), secret, now: NOW })).toBe('verified');
  });

  it('the Standard Webhooks form of a Leadflow secret (whsec_ + base64 of its text) verifies both schemes of a delivery signed with the secret', () => {
    const headers = { 'x-service-signature': leadflowSignature(BODY), ...standardHeaders(BODY) };
    const whsec = `whsec_${Buffer.from(SECRET, 'utf8').toString('base64')}`;
    expect(reasonOf({ payload: BODY, headers, secret: whsec, now: NOW })).toBe('verified');
  });

  it('a signature made by the official standardwebhooks library (whsec_ form of the secret) verifies with either form of the secret', () => {
    const whsec = `whsec_${Buffer.from(SECRET, 'utf8').toString('base64')}`;
    const signature = new Webhook(whsec).sign('msg_official', NOW, BODY);
    const headers = { 'webhook-id': 'msg_official', 'webhook-timestamp': String(T), 'webhook-signature': signature };
    expect(reasonOf({ payload: BODY, headers, secret: whsec, now: NOW })).toBe('verified');
    expect(reasonOf({ payload: BODY, headers, secret: SECRET, now: NOW })).toBe('verified');
    // …and the official library accepts what this file's reference signer produces.
    expect(() => new Webhook(whsec).verify(BODY, standardHeaders(BODY, SECRET, Math.floor(Date.now() / 1000)))).not.toThrow();
  });

  it('webhook-timestamp outside the tolerance is expired', () => {
    expect(reasonOf({ payload: BODY, headers: standardHeaders(BODY, SECRET, T - 400), secret: SECRET, now: NOW })).toBe('expired');
  });

  it('webhook-signature without webhook-id or webhook-timestamp, or without a v1 entry, is malformed', () => {
    const headers = standardHeaders(BODY);
    const { 'webhook-id': _id, ...withoutId } = headers;
    expect(reasonOf({ payload: BODY, headers: withoutId, secret: SECRET, now: NOW })).toBe('malformed');
    expect(reasonOf({ payload: BODY, headers: { ...headers, 'webhook-timestamp': 'yesterday' }, secret: SECRET, now: NOW })).toBe('malformed');
    expect(reasonOf({ payload: BODY, headers: { ...headers, 'webhook-signature': 'v1a,AAAA' }, secret: SECRET, now: NOW })).toBe('malformed');
  });
});
