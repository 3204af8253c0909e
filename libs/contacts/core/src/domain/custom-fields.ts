import { FieldViolation, isUuid, normalizeEmail, normalizePhone } from '@leadflow/shared-kernel';
import { CustomFieldDefinitionSpec, CustomFieldType, CustomFieldValue, isCustomFieldType } from '@leadflow/contacts-contracts';

/** A custom field definition of the account. */
export interface CustomFieldDefinition {
  id: string;
  name: string;
  type: CustomFieldType;
  /** Option values of a `select`, else null. */
  options: string[] | null;
}

/** Maximum lengths (characters) by type (public-api-v1 › Contact › Custom fields). */
export const CUSTOM_FIELD_MAX_LENGTH: Partial<Record<CustomFieldType, number>> = {
  text: 1000,
  long_text: 4000,
  url: 2048,
  email: 320,
  phone: 30,
};

export const CUSTOM_FIELD_NAME_MAX_LENGTH = 100;
export const SELECT_OPTIONS_MAX = 200;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

type Checked = { value: CustomFieldValue } | { reason: string; message: string };

/**
 * Validates one value against its definition and returns the value to store (email lowercased,
 * phone E.164, url trimmed), or the violation reason: `invalid_type`, `too_long`, `invalid_format`
 * (url not http/https, email, date not YYYY-MM-DD), `invalid_phone`, `invalid_value` (select option).
 */
export function checkCustomFieldValue(definition: CustomFieldDefinition, value: unknown): Checked {
  const max = CUSTOM_FIELD_MAX_LENGTH[definition.type];
  const stringLike = ['text', 'long_text', 'url', 'email', 'phone', 'select', 'date'].includes(definition.type);
  if (stringLike && typeof value !== 'string') return { reason: 'invalid_type', message: `${definition.name} must be a string.` };
  if (max !== undefined && (value as string).length > max) {
    return { reason: 'too_long', message: `${definition.name} must be at most ${max} characters.` };
  }
  switch (definition.type) {
    case 'text':
    case 'long_text':
      return { value: value as string };
    case 'url': {
      const text = (value as string).trim();
      let url: URL | null = null;
      try {
        url = new URL(text);
      } catch {
        url = null;
      }
      return url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
        ? { value: text }
        : { reason: 'invalid_format', message: `${definition.name} must be an http or https URL.` };
    }
    case 'email': {
      const email = normalizeEmail(value as string);
      return email ? { value: email } : { reason: 'invalid_format', message: `${definition.name} must be an email address.` };
    }
    case 'phone': {
      const phone = normalizePhone(value as string);
      return phone ? { value: phone } : { reason: 'invalid_phone', message: `${definition.name} must be a phone number (E.164).` };
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? { value }
        : { reason: 'invalid_type', message: `${definition.name} must be a number.` };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { reason: 'invalid_type', message: `${definition.name} must be a boolean.` };
    case 'select':
      return (definition.options ?? []).includes(value as string)
        ? { value: value as string }
        : { reason: 'invalid_value', message: `${definition.name} must be one of: ${(definition.options ?? []).join(', ')}.` };
    case 'date': {
      const match = DATE_PATTERN.exec(value as string);
      if (match) {
        const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
        const date = new Date(Date.UTC(year, month - 1, day));
        if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return { value: value as string };
      }
      return { reason: 'invalid_format', message: `${definition.name} must be a date (YYYY-MM-DD).` };
    }
  }
}

/** Values keyed by definition id: `set` to write, `cleared` (sent as null) to remove. */
export interface ResolvedCustomFields {
  set: Record<string, CustomFieldValue>;
  cleared: string[];
  violations: FieldViolation[];
}

/**
 * Resolves keys sent as definition id or name (id first) and validates each value. Violations use
 * `field` `custom_fields.<key as sent>`: `unknown_field`, `duplicate_field` (same definition twice),
 * or a reason of {@link checkCustomFieldValue}. A null value clears that key.
 */
export function resolveCustomFields(definitions: readonly CustomFieldDefinition[], input: Record<string, unknown>): ResolvedCustomFields {
  const byId = new Map(definitions.map((definition) => [definition.id.toLowerCase(), definition]));
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const resolved: ResolvedCustomFields = { set: {}, cleared: [], violations: [] };
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(input)) {
    const field = `custom_fields.${key}`;
    const definition = (isUuid(key) ? byId.get(key.toLowerCase()) : undefined) ?? byName.get(key);
    if (!definition) {
      resolved.violations.push({ field, reason: 'unknown_field', message: `No custom field is defined as "${key}".` });
      continue;
    }
    if (seen.has(definition.id)) {
      resolved.violations.push({ field, reason: 'duplicate_field', message: `${definition.name} is sent twice (by name and by id).` });
      continue;
    }
    seen.add(definition.id);
    if (value === null) {
      resolved.cleared.push(definition.id);
      continue;
    }
    const checked = checkCustomFieldValue(definition, value);
    if ('reason' in checked) resolved.violations.push({ field, reason: checked.reason, message: checked.message });
    else resolved.set[definition.id] = checked.value;
  }
  return resolved;
}

/** `current` with `resolved` applied: set keys replaced or added, cleared keys removed. */
export function mergeCustomFields(
  current: Readonly<Record<string, CustomFieldValue>>,
  resolved: Pick<ResolvedCustomFields, 'set' | 'cleared'>,
): Record<string, CustomFieldValue> {
  const next: Record<string, CustomFieldValue> = { ...current, ...resolved.set };
  for (const id of resolved.cleared) delete next[id];
  return next;
}

/**
 * Checks the blueprint's definitions: names 1–100 characters and unique (also against `existingNames`),
 * known types, `select` with 1–200 distinct non-empty options. Violations use `custom_fields[<i>].<member>`.
 */
export function checkDefinitionSpecs(specs: readonly CustomFieldDefinitionSpec[], existingNames: ReadonlySet<string> = new Set()): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const names = new Set<string>();
  specs.forEach((spec, index) => {
    const at = `custom_fields[${index}]`;
    const name = typeof spec.name === 'string' ? spec.name.trim() : '';
    if (name.length === 0) violations.push({ field: `${at}.name`, reason: 'required', message: 'name is required.' });
    else if (name.length > CUSTOM_FIELD_NAME_MAX_LENGTH) violations.push({ field: `${at}.name`, reason: 'too_long', message: 'name is too long.' });
    else if (names.has(name) || existingNames.has(name)) violations.push({ field: `${at}.name`, reason: 'duplicate', message: `name "${name}" is used twice.` });
    names.add(name);
    if (!isCustomFieldType(spec.type)) violations.push({ field: `${at}.type`, reason: 'invalid_value', message: 'Unknown custom field type.' });
    if (spec.type === 'select') {
      const options = spec.options ?? [];
      const valid = options.every((option) => typeof option === 'string' && option.length > 0);
      if (options.length === 0) violations.push({ field: `${at}.options`, reason: 'too_few', message: 'A select field needs options.' });
      else if (options.length > SELECT_OPTIONS_MAX) violations.push({ field: `${at}.options`, reason: 'too_many', message: 'Too many options.' });
      else if (!valid || new Set(options).size !== options.length) {
        violations.push({ field: `${at}.options`, reason: 'invalid_value', message: 'Options must be distinct non-empty strings.' });
      }
    }
  });
  return violations;
}
