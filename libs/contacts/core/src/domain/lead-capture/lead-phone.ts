import { E164_PATTERN, normalizePhone } from '@leadflow/shared-kernel';

/** Largest integer accepted as a phone number (public-api-v1 › Limits: 9007199254740991). */
export const MAX_PHONE_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * A trailing extension: English (`ext. 204`, `extension 12`, `x12`, `#12`) and French (`poste 3`,
 * `p. 3`). libphonenumber understands the English forms but not `poste`; the extension is dropped
 * either way (the lead is reached on the main number).
 */
const TRAILING_EXTENSION = /[\s,;]*(?:poste|p\.|ext\.?|extension|x|#)\s*\d{1,7}\s*$/i;

export type LeadPhone =
  | { ok: true; value: string }
  | { ok: false; reason: 'required' | 'invalid_phone'; message: string };

/** The text with a trailing extension removed (unchanged when there is none). */
export function stripPhoneExtension(text: string): string {
  const stripped = text.replace(TRAILING_EXTENSION, '');
  return stripped.trim().length > 0 ? stripped : text;
}

/** The value as echoed in a 422 message: at most 120 characters (public-api-v1 › Endpoints › Leads rule 9). */
export function echoValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.slice(0, 120);
}

/**
 * `phone` of lead capture: a string, or a positive JSON integer up to 9007199254740991 (converted to
 * its decimal string). Normalised to E.164 with the kernel's `normalizePhone` (numbers without a
 * country code read as North American) after dropping a trailing extension, then checked against
 * `^\+[1-9]\d{10,14}$`. Other numbers (decimals, negatives, above the limit) are refused even when
 * their text would parse.
 */
export function parseLeadPhone(raw: unknown): LeadPhone {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim().length === 0)) {
    return { ok: false, reason: 'required', message: 'phone is required.' };
  }
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw) || raw <= 0 || raw > MAX_PHONE_INTEGER) {
      return invalid(raw, 'only positive integers up to 9007199254740991 are accepted as numbers');
    }
    text = String(raw);
  } else if (typeof raw === 'string') {
    text = raw;
  } else {
    return invalid(raw, 'send a string or a positive integer');
  }
  const normalized = normalizePhone(stripPhoneExtension(text));
  if (normalized === null || !E164_PATTERN.test(normalized)) return invalid(raw, 'it does not normalise to E.164');
  return { ok: true, value: normalized };
}

function invalid(raw: unknown, why: string): LeadPhone {
  return { ok: false, reason: 'invalid_phone', message: `phone "${echoValue(raw)}" is not a valid phone number: ${why}.` };
}
