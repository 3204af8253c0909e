import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The final E.164 shape the spec accepts (lead capture and contacts): `+` then 11 to 15 digits. */
export const E164_PATTERN = /^\+[1-9]\d{10,14}$/;

/**
 * Normalises a phone number to E.164 with libphonenumber-js, reading numbers without a country
 * code as North American (`CA`). Returns null when the number is not a valid number or does not
 * match {@link E164_PATTERN}. Examples: `(514) 555-0123`, `514.555.0123`, `15145550123` → `+15145550123`.
 */
export function normalizePhone(raw: string): string | null {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || trimmed.length > 50) return null;
  const parsed = parsePhoneNumberFromString(trimmed, 'CA');
  if (!parsed || !parsed.isValid()) return null;
  const e164 = parsed.number;
  return E164_PATTERN.test(e164) ? e164 : null;
}
