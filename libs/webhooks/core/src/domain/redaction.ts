/**
 * Redaction of sensitive keys in delivered payloads (public-api-v1 › Outbound webhooks: "`changes`
 * (sensitive keys redacted)"). A key is sensitive when its lowercase name, with `-` and spaces read as
 * `_`, contains one of {@link SENSITIVE_KEY_PARTS}; its value (whatever its type, nested objects
 * included) becomes {@link REDACTED}. Applied to `changes` and, as a precaution, to `data`.
 */
export const SENSITIVE_KEY_PARTS = [
  'password',
  'passwd',
  'secret',
  'token',
  'api_key',
  'apikey',
  'authorization',
  'cookie',
  'session',
  'private_key',
  'credential',
  'ssn',
  'social_insurance',
  'nas',
  'sin',
  'card_number',
  'cvv',
  'cvc',
  'iban',
  'account_number',
] as const;

/** Short parts matched only as a whole word (`sin`, `nas`, `ssn`, `cvv`, `cvc`): `business` or `nasty` stay visible. */
const WHOLE_WORD_PARTS = new Set(['sin', 'nas', 'ssn', 'cvv', 'cvc']);

export const REDACTED = '[REDACTED]';

/** True when a key names a secret (see {@link SENSITIVE_KEY_PARTS}). */
export function isSensitiveKey(key: string): boolean {
  const normalized = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const words = normalized.split('_');
  return SENSITIVE_KEY_PARTS.some((part) => (WHOLE_WORD_PARTS.has(part) ? words.includes(part) : normalized.includes(part)));
}

/** A deep copy of `value` with every sensitive key's value replaced by `[REDACTED]`. */
export function redactSensitive<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => redactSensitive(item)) as T;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      copy[key] = isSensitiveKey(key) ? REDACTED : redactSensitive(inner);
    }
    return copy as T;
  }
  return value;
}
