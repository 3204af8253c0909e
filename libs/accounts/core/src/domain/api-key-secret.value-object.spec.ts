import { API_KEY_PATTERN, ApiKeySecret, hashApiKey } from './api-key-secret.value-object';
import { lifecycleOf } from './api-key-lifecycle';

describe('ApiKeySecret (operator-api › API key format)', () => {
  it('issues keys of the form lf_live_<8 base62>_<32+ base62> whose key_prefix is lf_live_<prefix>', () => {
    const secret = ApiKeySecret.issue();
    expect(secret.raw).toMatch(API_KEY_PATTERN);
    expect(secret.raw.startsWith(`${secret.keyPrefix}_`)).toBe(true);
    expect(secret.prefix).toHaveLength(8);
  });

  it('stores only a sha256 hash, never the raw key', () => {
    const secret = ApiKeySecret.issue();
    expect(secret.hash).toBe(hashApiKey(secret.raw));
    expect(secret.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(secret.hash).not.toContain(secret.raw.slice(17));
  });

  it('issues distinct keys', () => {
    const raws = new Set(Array.from({ length: 200 }, () => ApiKeySecret.issue().raw));
    expect(raws.size).toBe(200);
  });

  it.each(['', 'abc', 'lf_live_short_abc', 'lf_test_ABCDEFGH_0123456789abcdef0123456789abcdef', 'lf_live_ABCDEFGH_tooshort'])(
    'parses %j as not a key',
    (raw) => {
      expect(ApiKeySecret.parse(raw)).toBeNull();
    },
  );

  it('compares hashes in constant time and only equal hashes match', () => {
    const a = ApiKeySecret.issue();
    const b = ApiKeySecret.issue();
    expect(ApiKeySecret.sameHash(a.hash, a.hash)).toBe(true);
    expect(ApiKeySecret.sameHash(a.hash, b.hash)).toBe(false);
    expect(ApiKeySecret.sameHash(a.hash, 'abcd')).toBe(false);
  });
});

describe('lifecycleOf (only an active key authenticates)', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');
  it('is active without revocation and before expiry', () => {
    expect(lifecycleOf({ revokedAt: null, expiresAt: null }, now)).toBe('active');
    expect(lifecycleOf({ revokedAt: null, expiresAt: new Date('2026-11-22T12:00:01.000Z') }, now)).toBe('active');
  });
  it('is expired at the expiry instant', () => {
    expect(lifecycleOf({ revokedAt: null, expiresAt: now }, now)).toBe('expired');
  });
  it('is revoked once revoked, whatever the expiry', () => {
    expect(lifecycleOf({ revokedAt: now, expiresAt: null }, now)).toBe('revoked');
  });
});
