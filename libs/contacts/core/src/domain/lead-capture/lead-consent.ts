/**
 * `sms_consent` of lead capture (public-api-v1 › Lead capture input): consent is the JSON boolean
 * `true` or one of these strings, compared after trimming and in any casing. Everything else — `false`,
 * any number (`0` and `1` included), `null`, other strings (`no`, `non`, `maybe`, `""`) or no value —
 * is not consent (422 `missing_consent`).
 */
export const SMS_CONSENT_TRUTHY_STRINGS: readonly string[] = ['true', 'yes', 'oui', 'on', '1', 'y', 'o'];

const TRUTHY = new Set(SMS_CONSENT_TRUTHY_STRINGS);

/** True for `true` and the whitelisted strings (any casing, surrounding spaces ignored). */
export function isTruthyConsent(value: unknown): boolean {
  if (value === true) return true;
  return typeof value === 'string' && TRUTHY.has(value.trim().toLowerCase());
}
