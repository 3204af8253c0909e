import type { FieldViolation } from '@leadflow/shared-kernel';
import type { NewContactInput } from '../../../domain/contact.aggregate';
import { normalizeContactEmail, normalizeContactPhone } from '../../../domain/contact-identity';

/** Most inputs in one `POST /v1/contacts/batch` (more gives 400 `validation_error`, reason `too_many`, on `inputs`). */
export const BATCH_MAX_INPUTS = 100;

/** One input of the batch, checked: what `POST /v1/contacts` accepts, with its email and phone normalised. */
export interface BatchContactInput extends NewContactInput {
  systemId?: string | null;
  /** Lowercase, or null when not sent. */
  normalizedEmail: string | null;
  /** E.164, or null when not sent. */
  normalizedPhone: string | null;
}

type Member = 'string' | 'number' | 'object';

/** Members of an input, their JSON type and maximum length: the rules of `CreateContactDto` (POST /v1/contacts). */
const MEMBERS: Record<string, { type: Member; max?: number }> = {
  email: { type: 'string', max: 320 },
  first_name: { type: 'string', max: 200 },
  last_name: { type: 'string', max: 200 },
  phone: { type: 'string', max: 50 },
  company: { type: 'string', max: 200 },
  deal_value: { type: 'number' },
  custom_fields: { type: 'object' },
  system_id: { type: 'string', max: 64 },
};

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Checks one input of `POST /v1/contacts/batch` (an object with the members of `POST /v1/contacts`)
 * and returns it, or the violations that make it an `error` result (400 `validation_error`): paths are
 * relative to the input (`email`, `custom_fields`); reasons `invalid_type` (not an object, or a member of
 * the wrong JSON type; null is accepted: it clears the field of an existing contact, like PATCH, but
 * for `email` and `phone`, which are only ever added), `unknown_field`, `too_long`,
 * `invalid_format` (email), `invalid_phone` (phone), and `identity_required` on `email` and `phone`
 * when neither is given (the input is matched by them). Deal value, custom fields and the System are
 * checked later by the contact's own rules.
 */
export function parseBatchContactInput(raw: unknown): { input: BatchContactInput; violations?: undefined } | { input?: undefined; violations: FieldViolation[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { violations: [{ field: '', reason: 'invalid_type', message: 'Each input must be a JSON object.' }] };
  }
  const violations: FieldViolation[] = [];
  const body = raw as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) {
    const rule = MEMBERS[name];
    if (!rule) {
      violations.push({ field: name, reason: 'unknown_field', message: `${name} is not a member of a contact input.` });
      continue;
    }
    if (value === null) continue;
    const type = typeOf(value);
    const valid = rule.type === 'number' ? type === 'number' && Number.isFinite(value) : type === rule.type;
    if (!valid) violations.push({ field: name, reason: 'invalid_type', message: `${name} must be a ${rule.type}.` });
    else if (rule.max !== undefined && (value as string).length > rule.max) {
      violations.push({ field: name, reason: 'too_long', message: `${name} must be at most ${rule.max} characters.` });
    }
  }
  if (violations.length > 0) return { violations };

  const text = (name: string) => (body[name] === undefined ? undefined : (body[name] as string | null));
  const email = normalizeContactEmail(text('email') ?? null);
  const phone = normalizeContactPhone(text('phone') ?? null);
  if (email.violation) violations.push(email.violation);
  if (phone.violation) violations.push(phone.violation);
  if (!email.violation && !phone.violation && email.value === null && phone.value === null) {
    const message = 'email or phone is required: the input is matched by them.';
    violations.push({ field: 'email', reason: 'identity_required', message }, { field: 'phone', reason: 'identity_required', message });
  }
  if (violations.length > 0) return { violations };
  return {
    input: {
      email: text('email'),
      phone: text('phone'),
      firstName: text('first_name'),
      lastName: text('last_name'),
      company: text('company'),
      dealValue: body.deal_value === undefined ? undefined : (body.deal_value as number | null),
      customFields: body.custom_fields === undefined ? undefined : (body.custom_fields as Record<string, unknown> | null),
      systemId: text('system_id'),
      normalizedEmail: email.value ?? null,
      normalizedPhone: phone.value ?? null,
    },
  };
}
