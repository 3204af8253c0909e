import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AccountMode, apiKeyModePrefix } from '@leadflow/accounts-contracts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/**
 * `lf_live_<8 base62>_<32+ base62>` (operator-api › API key format), or `lf_test_...` for a key of a
 * sandbox account (issue 15, item 4). The hash covers the whole key, mode included, so a key presented
 * with the other mode's head never matches.
 */
export const API_KEY_PATTERN = /^lf_(?:live|test)_([0-9A-Za-z]{8})_([0-9A-Za-z]{32,})$/;
export const API_KEY_FORMAT_VERSION = 1;

function base62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    if (bytes[i] < 248) out += BASE62[bytes[i] % 62]; // 248 = 62 * 4: no modulo bias
  }
  return out.length === length ? out : out + base62(length - out.length);
}

/** sha256 hex of the whole raw key: the only form stored (one-shot `crypto.hash`: no Hash object per request). */
export function hashApiKey(rawKey: string): string {
  return hash('sha256', rawKey, 'hex');
}

/**
 * A freshly issued key. `raw` is shown once (creation response), `prefix` (8 characters) indexes the
 * lookup, `keyPrefix` is what `GET /v1/me` shows (`lf_live_<prefix>`), `hash` is stored.
 */
export class ApiKeySecret {
  private constructor(
    readonly raw: string,
    readonly prefix: string,
    readonly hash: string,
  ) {}

  /** A new key; `lf_test_` for a sandbox account (`mode` `test`), else `lf_live_`. */
  static issue(mode: AccountMode = 'live'): ApiKeySecret {
    const prefix = base62(8);
    const raw = `${apiKeyModePrefix(mode)}${prefix}_${base62(40)}`;
    return new ApiKeySecret(raw, prefix, hashApiKey(raw));
  }

  get keyPrefix(): string {
    return `${this.raw.slice(0, 8)}${this.prefix}`;
  }

  /** Splits a presented key; null when it does not have the key format. */
  static parse(raw: string): { prefix: string; hash: string } | null {
    const match = API_KEY_PATTERN.exec(raw);
    return match ? { prefix: match[1], hash: hashApiKey(raw) } : null;
  }

  /** Constant-time comparison of two sha256 hex digests. */
  static sameHash(a: string, b: string): boolean {
    const left = Buffer.from(a, 'hex');
    const right = Buffer.from(b, 'hex');
    return left.length === right.length && timingSafeEqual(left, right);
  }
}
