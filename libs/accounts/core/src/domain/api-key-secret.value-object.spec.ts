import { API_KEY_PATTERN, ApiKeySecret, hashApiKey } from './api-key-secret.value-object';
import { lifecycleOf } from './api-key-lifecycle';

describe('ApiKeySecret (operator-api › API key format)', () => {
  it('issues keys of the form lf_live_<8 base62>_<32+ base62> whose key_prefix is lf_live_<prefix>', () => {
    const secret = ApiKeySecret.issue();
    expect(secret.raw).toMatch(API_KEY_PATTERN);
    expect(secret.raw.startsWith(`${secret.keyPrefix}_`)).toBe(true);
    expect(secret.prefix).toHaveLength(8);
  });

  it('issues lf_test_ keys for a sandbox account (test mode); both heads parse to the same 8-character prefix, the hash covers the head', () => {
    const secret = ApiKeySecret.issue('test');
    expect(secret.raw).toMatch(/^lf_test_[0-9A-Za-z]{8}_[0-9A-Za-z]{40}$/);
    expect(secret.keyPrefix).toBe(`lf_test_${secret.prefix}`);
    const asTest = ApiKeySecret.parse(secret.raw);
    const asLive = ApiKeySecret.parse(secret.raw.replace('lf_test_', 'lf_live_'));
    expect(asTest).toEqual({ prefix: secret.prefix, hash: secret.hash });
    expect(asLive?.prefix).toBe(secret.prefix);
    expect(ApiKeySecret.sameHash(asLive!.hash, secret.hash)).toBe(false);
    expect(ApiKeySecret.issue('live').raw.startsWith('lf_live_')).toBe(true);
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

  it.each(['', 'abc', 'lf_live_short_abc', 'lf_prod_ABCDEFGH_0123456789abcdef0123456789abcdef', 'lf_live_ABCDEFGH_tooshort'])(
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
