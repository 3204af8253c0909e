import { checkCustomFieldValue, checkDefinitionSpecs, CustomFieldDefinition, mergeCustomFields, resolveCustomFields } from './custom-fields';

const def = (type: CustomFieldDefinition['type'], options: string[] | null = null): CustomFieldDefinition => ({
  id: '0b7a1c0e-0000-4000-8000-000000000001',
  name: type,
  type,
  options,
});

const DEFINITIONS: CustomFieldDefinition[] = [
  { id: '11111111-1111-4111-8111-111111111111', name: 'budget', type: 'text', options: null },
  { id: '22222222-2222-4222-8222-222222222222', name: 'superficie', type: 'number', options: null },
  { id: '33333333-3333-4333-8333-333333333333', name: 'type_projet', type: 'select', options: ['cuisine', 'sous_sol'] },
];

describe('custom field values are validated by type and length (public-api-v1 › Contact › Custom fields)', () => {
  it.each([
    ['text', 'x'.repeat(1000)],
    ['long_text', 'x'.repeat(4000)],
    ['url', 'https://example.com/a?b=c'],
    ['url', 'http://example.com'],
    ['number', 12.5],
    ['number', 0],
    ['boolean', false],
    ['date', '2024-02-29'],
  ] as const)('accepts a valid %s value', (type, value) => {
    expect(checkCustomFieldValue(def(type), value)).toEqual({ value });
  });

  it.each([
    ['text', 1001, 'too_long'],
    ['long_text', 4001, 'too_long'],
    ['url', 2049, 'too_long'],
    ['email', 321, 'too_long'],
    ['phone', 31, 'too_long'],
  ] as const)('refuses a %s longer than its limit with too_long', (type, length, reason) => {
    expect(checkCustomFieldValue(def(type), 'x'.repeat(length))).toMatchObject({ reason });
  });

  it('accepts a url of exactly 2048 characters', () => {
    const url = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(checkCustomFieldValue(def('url'), url)).toEqual({ value: url });
  });

  it.each(['ftp://example.com', 'javascript:alert(1)', 'example.com', 'not a url'])('refuses the non-http(s) url %p with invalid_format', (value) => {
    expect(checkCustomFieldValue(def('url'), value)).toMatchObject({ reason: 'invalid_format' });
  });

  it('lowercases an email value and refuses a malformed one', () => {
    expect(checkCustomFieldValue(def('email'), 'Julie@Tremblay.TEST')).toEqual({ value: 'julie@tremblay.test' });
    expect(checkCustomFieldValue(def('email'), 'julie@')).toMatchObject({ reason: 'invalid_format' });
  });

  it('normalises a phone value to E.164 and refuses one that does not normalise with invalid_phone', () => {
    expect(checkCustomFieldValue(def('phone'), '(514) 555-0123')).toEqual({ value: '+15145550123' });
    expect(checkCustomFieldValue(def('phone'), '123')).toMatchObject({ reason: 'invalid_phone' });
  });

  it.each([
    ['number', '12', 'invalid_type'],
    ['number', Number.NaN, 'invalid_type'],
    ['boolean', 'true', 'invalid_type'],
    ['text', 12, 'invalid_type'],
    ['text', { a: 1 }, 'invalid_type'],
    ['select', 3, 'invalid_type'],
    ['date', 20240101, 'invalid_type'],
  ] as const)('refuses a %s given %p with %s', (type, value, reason) => {
    expect(checkCustomFieldValue(def(type, ['a']), value)).toMatchObject({ reason });
  });

  it.each(['2024-02-30', '2023-02-29', '2024-13-01', '24-01-01', '2024-1-1', '2024-01-01T00:00:00Z'])('refuses the date %p with invalid_format', (value) => {
    expect(checkCustomFieldValue(def('date'), value)).toMatchObject({ reason: 'invalid_format' });
  });

  it('accepts only one of the options of a select field (the value, not a label)', () => {
    expect(checkCustomFieldValue(def('select', ['cuisine', 'sous_sol']), 'cuisine')).toEqual({ value: 'cuisine' });
    expect(checkCustomFieldValue(def('select', ['cuisine', 'sous_sol']), 'Cuisine')).toMatchObject({ reason: 'invalid_value' });
  });
});

describe('custom field keys are definition names or ids; unknown keys are refused', () => {
  it('resolves names and ids to definition ids', () => {
    const resolved = resolveCustomFields(DEFINITIONS, { budget: '10k', '22222222-2222-4222-8222-222222222222': 120 });
    expect(resolved).toEqual({
      set: { '11111111-1111-4111-8111-111111111111': '10k', '22222222-2222-4222-8222-222222222222': 120 },
      cleared: [],
      violations: [],
    });
  });

  it('accepts an id in upper case', () => {
    const resolved = resolveCustomFields(DEFINITIONS, { ['11111111-1111-4111-8111-111111111111'.toUpperCase()]: 'a' });
    expect(resolved.set).toEqual({ '11111111-1111-4111-8111-111111111111': 'a' });
  });

  it('reports every unknown key and bad value as custom_fields.<key>', () => {
    const resolved = resolveCustomFields(DEFINITIONS, { nope: 1, superficie: 'big', type_projet: 'garage', Budget: 'x' });
    expect(resolved.violations).toEqual([
      expect.objectContaining({ field: 'custom_fields.nope', reason: 'unknown_field' }),
      expect.objectContaining({ field: 'custom_fields.superficie', reason: 'invalid_type' }),
      expect.objectContaining({ field: 'custom_fields.type_projet', reason: 'invalid_value' }),
      expect.objectContaining({ field: 'custom_fields.Budget', reason: 'unknown_field' }),
    ]);
    expect(resolved.set).toEqual({});
  });

  it('refuses the same definition sent by name and by id', () => {
    const resolved = resolveCustomFields(DEFINITIONS, { budget: 'a', '11111111-1111-4111-8111-111111111111': 'b' });
    expect(resolved.violations).toEqual([expect.objectContaining({ reason: 'duplicate_field' })]);
  });

  it('a null value clears that key; merging replaces existing keys and keeps the others', () => {
    const current = { '11111111-1111-4111-8111-111111111111': 'old', '22222222-2222-4222-8222-222222222222': 5 };
    const resolved = resolveCustomFields(DEFINITIONS, { budget: null, type_projet: 'cuisine' });
    expect(mergeCustomFields(current, resolved)).toEqual({
      '22222222-2222-4222-8222-222222222222': 5,
      '33333333-3333-4333-8333-333333333333': 'cuisine',
    });
  });
});

describe('custom field definitions of a blueprint', () => {
  it('accepts the operator example', () => {
    expect(
      checkDefinitionSpecs([
        { name: 'budget', type: 'text' },
        { name: 'type_projet', type: 'select', options: ['cuisine', 'salle_de_bain'] },
      ]),
    ).toEqual([]);
  });

  it('refuses blank and repeated names, unknown types, selects without distinct options', () => {
    const violations = checkDefinitionSpecs(
      [
        { name: ' ', type: 'text' },
        { name: 'a', type: 'color' as never },
        { name: 'a', type: 'select' },
        { name: 'b', type: 'select', options: ['x', 'x'] },
        { name: 'taken', type: 'text' },
      ],
      new Set(['taken']),
    );
    expect(violations).toEqual([
      expect.objectContaining({ field: 'custom_fields[0].name', reason: 'required' }),
      expect.objectContaining({ field: 'custom_fields[1].type', reason: 'invalid_value' }),
      expect.objectContaining({ field: 'custom_fields[2].name', reason: 'duplicate' }),
      expect.objectContaining({ field: 'custom_fields[2].options', reason: 'too_few' }),
      expect.objectContaining({ field: 'custom_fields[3].options', reason: 'invalid_value' }),
      expect.objectContaining({ field: 'custom_fields[4].name', reason: 'duplicate' }),
    ]);
  });
});
