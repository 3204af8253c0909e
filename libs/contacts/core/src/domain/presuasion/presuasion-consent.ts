import { isTruthyConsent, SMS_CONSENT_TRUTHY_STRINGS } from '../lead-capture/lead-consent';

/**
 * Refusals a presuasion tool may send for a consent (compared after trimming, any casing), beside the
 * JSON boolean `false`. The accepted values are lead capture's consent values (`true` and
 * {@link SMS_CONSENT_TRUTHY_STRINGS}), so a form wired for lead capture sends the same words here.
 */
export const CONSENT_REFUSAL_STRINGS: readonly string[] = ['false', 'no', 'non', 'off', '0', 'n'];

const REFUSALS = new Set(CONSENT_REFUSAL_STRINGS);

export type ConsentReading = { ok: true; value: boolean | null } | { ok: false };

/**
 * A consent of a presuasion submission (`consent.sms`, `consent.email`, `consent.ads`): absent or null
 * reads as not asked (null); a lead-capture consent value as given (true); `false` or a refusal string as
 * refused (false). Anything else (`maybe`, `""`, a number, an object) is ambiguous and refused by the
 * caller (400 `validation_error`, reason `invalid_value`): a consent is never guessed.
 */
export function readConsent(value: unknown): ConsentReading {
  if (value === undefined || value === null) return { ok: true, value: null };
  if (isTruthyConsent(value)) return { ok: true, value: true };
  if (value === false || (typeof value === 'string' && REFUSALS.has(value.trim().toLowerCase()))) return { ok: true, value: false };
  return { ok: false };
}

/** The values {@link readConsent} accepts, for messages. */
export const CONSENT_VALUES_TEXT = `true, false, or one of ${[...SMS_CONSENT_TRUTHY_STRINGS, ...CONSENT_REFUSAL_STRINGS].join(', ')}`;
