import { FieldViolation, normalizeEmail, normalizePhone } from '@leadflow/shared-kernel';

/** Kinds of identities unique per account across primary and secondary details (public-api-v1 › Contact). */
export type IdentityKind = 'email' | 'phone';

export interface Identity {
  kind: IdentityKind;
  value: string;
}

/** Phone input limit of the contact routes (public-api-v1 › Limits). */
export const PHONE_MAX_LENGTH = 50;

/** A contact always keeps at least one of these (PATCH rule 4, reason `identity_required`). */
export const IDENTITY_FIELDS = ['first_name', 'last_name', 'email', 'phone'] as const;

export interface IdentityFields {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
}

/** Trims; an empty or blank string reads as null; undefined (absent) stays undefined. */
export function normalizeText(raw: string | null | undefined): string | null | undefined {
  if (raw === undefined || raw === null) return raw;
  const trimmed = raw.trim();
  return trimmed.length === 0 ? null : trimmed;
}

export type Normalized = { value: string | null; violation?: undefined } | { value?: undefined; violation: FieldViolation };

/** Lowercased address, null for blank; violation `invalid_format` when it is not an address. */
export function normalizeContactEmail(raw: string | null, field = 'email'): Normalized {
  const text = normalizeText(raw);
  if (text === null || text === undefined) return { value: null };
  const email = normalizeEmail(text);
  return email ? { value: email } : { violation: { field, reason: 'invalid_format', message: 'email is not a valid address.' } };
}

/** E.164, null for blank; violation `invalid_phone` when it does not normalise (or `too_long` over 50 characters). */
export function normalizeContactPhone(raw: string | null, field = 'phone'): Normalized {
  const text = normalizeText(raw);
  if (text === null || text === undefined) return { value: null };
  if (text.length > PHONE_MAX_LENGTH) {
    return { violation: { field, reason: 'too_long', message: `phone must be at most ${PHONE_MAX_LENGTH} characters.` } };
  }
  const phone = normalizePhone(text);
  return phone ? { value: phone } : { violation: { field, reason: 'invalid_phone', message: 'phone does not normalise to E.164.' } };
}

export function hasIdentity(fields: IdentityFields): boolean {
  return fields.firstName !== null || fields.lastName !== null || fields.email !== null || fields.phone !== null;
}

/** The email and phone identities of a contact's primary details. */
export function primaryIdentities(fields: Pick<IdentityFields, 'email' | 'phone'>): Identity[] {
  const identities: Identity[] = [];
  if (fields.email) identities.push({ kind: 'email', value: fields.email });
  if (fields.phone) identities.push({ kind: 'phone', value: fields.phone });
  return identities;
}
