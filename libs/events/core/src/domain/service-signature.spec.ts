import { createHmac } from 'node:crypto';
import { serviceSignature, SIGNATURE_WINDOW_SECONDS, verifyServiceSignature } from './service-signature';

describe('verifyServiceSignature (public-api-v1 › Authentication 6)', () => {
  const key = 'lf_live_abcdefgh_0123456789abcdef0123456789abcdef';
  const body = '{"event":"x","contact":{"email":"a@b.co"}}';
  const now = 1_800_000_000;
  const header = (t: number, digest = serviceSignature(key, t, body)) => `t=${t},v1=${digest}`;
  const reason = (run: () => void) => {
    try {
      run();
      return 'accepted';
    } catch (error) {
      return (error as { code: string; details: { reason: string } }).code + ':' + (error as { details: { reason: string } }).details.reason;
    }
  };

  it('v1 is the hex HMAC-SHA256 of "<t>.<raw body>" keyed by the raw API key', () => {
    expect(serviceSignature(key, now, body)).toBe(createHmac('sha256', key).update(`${now}.${body}`).digest('hex'));
  });

  it('accepts a valid signature, at both ends of the 5 minute window', () => {
    expect(reason(() => verifyServiceSignature(header(now), body, key, now))).toBe('accepted');
    expect(reason(() => verifyServiceSignature(header(now - SIGNATURE_WINDOW_SECONDS), body, key, now))).toBe('accepted');
    expect(reason(() => verifyServiceSignature(header(now + SIGNATURE_WINDOW_SECONDS), body, key, now))).toBe('accepted');
  });

  it('refuses expired and future timestamps', () => {
    expect(reason(() => verifyServiceSignature(header(now - 301), body, key, now))).toBe('invalid_signature:expired');
    expect(reason(() => verifyServiceSignature(header(now + 301), body, key, now))).toBe('invalid_signature:expired');
  });

  it('refuses a wrong key or a tampered body', () => {
    expect(reason(() => verifyServiceSignature(header(now, serviceSignature('other', now, body)), body, key, now))).toBe('invalid_signature:mismatch');
    expect(reason(() => verifyServiceSignature(header(now), `${body} `, key, now))).toBe('invalid_signature:mismatch');
  });

  it('refuses malformed headers', () => {
    for (const value of ['', 't=1', 'v1=ab', `t=x,v1=${'a'.repeat(64)}`, `t=${now},v1=${'a'.repeat(63)}`, `t=${now},t=${now},v1=${'a'.repeat(64)}`, `t=${now},v2=${'a'.repeat(64)}`]) {
      expect(reason(() => verifyServiceSignature(value, body, key, now))).toBe('invalid_signature:malformed');
    }
  });
});
