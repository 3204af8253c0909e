import type { CustomFieldValue } from '@leadflow/contacts-contracts';
import { checkCustomFieldValue, CustomFieldDefinition } from '../custom-fields';
import type { IgnoredFields } from './ignored-fields';
import { cleanText } from './lead-capture-input';

const NUMERIC = /^-?\d+(?:[.,]\d+)?$/;

/**
 * `custom_fields` of a capture, keyed by definition name (public-api-v1 › Lead capture input): the
 * exact name, else the one definition whose name matches ignoring case. A key matching no definition
 * (a definition id included: capture keys are names) is named `custom_field_not_defined`; a second key
 * for the same definition `duplicate_field`; a value the definition refuses (a select takes the option
 * value, not a label) `invalid_value`. A number field also takes a numeric string. Null and blank values
 * are not sent. Returns the values keyed by definition id, to replace or add on the contact.
 */
export function resolveLeadCustomFields(
  definitions: readonly CustomFieldDefinition[],
  input: Record<string, unknown>,
  ignored: IgnoredFields,
): Record<string, CustomFieldValue> {
  const values: Record<string, CustomFieldValue> = {};
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const seen = new Set<string>();
  for (const [key, raw] of Object.entries(input)) {
    const field = `custom_fields.${key}`;
    const definition = byName.get(key) ?? uniqueCaseInsensitive(definitions, key);
    if (!definition) {
      ignored.add(field, 'custom_field_not_defined');
      continue;
    }
    if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim().length === 0)) continue;
    if (seen.has(definition.id)) {
      ignored.add(field, 'duplicate_field');
      continue;
    }
    seen.add(definition.id);
    const text = typeof raw === 'string' ? cleanText(raw) : raw;
    const value = definition.type === 'number' && typeof text === 'string' && NUMERIC.test(text.trim()) ? Number(text.trim().replace(',', '.')) : text;
    const checked = checkCustomFieldValue(definition, value);
    if ('reason' in checked) ignored.add(field, 'invalid_value');
    else values[definition.id] = checked.value;
  }
  return values;
}

function uniqueCaseInsensitive(definitions: readonly CustomFieldDefinition[], key: string): CustomFieldDefinition | undefined {
  const wanted = key.trim().toLowerCase();
  const matches = definitions.filter((definition) => definition.name.toLowerCase() === wanted);
  return matches.length === 1 ? matches[0] : undefined;
}
