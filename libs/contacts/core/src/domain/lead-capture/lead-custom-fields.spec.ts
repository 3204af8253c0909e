import type { CustomFieldDefinition } from '../custom-fields';
import { IgnoredFields } from './ignored-fields';
import { resolveLeadCustomFields } from './lead-custom-fields';

const DEFINITIONS: CustomFieldDefinition[] = [
  { id: 'd1', name: 'budget', type: 'text', options: null },
  { id: 'd2', name: 'type_projet', type: 'select', options: ['cuisine', 'salle_de_bain', 'sous_sol'] },
  { id: 'd3', name: 'superficie', type: 'number', options: null },
  { id: 'd4', name: 'site_web', type: 'url', options: null },
];

/** public-api-v1 › Lead capture input: custom_fields keyed by definition name, select by option value. */
describe('lead capture custom fields', () => {
  it('resolves keys by definition name and returns values keyed by definition id', () => {
    const ignored = new IgnoredFields();
    expect(
      resolveLeadCustomFields(DEFINITIONS, { type_projet: 'cuisine', budget: '25 000 $', superficie: 14, site_web: 'https://a.ca' }, ignored),
    ).toEqual({ d2: 'cuisine', d1: '25 000 $', d3: 14, d4: 'https://a.ca' });
    expect(ignored.size).toBe(0);
  });

  it('an undefined key (or a definition id) is custom_field_not_defined; the others are applied', () => {
    const ignored = new IgnoredFields();
    expect(resolveLeadCustomFields(DEFINITIONS, { type_projet: 'cuisine', couleur_armoires: 'Blanc', d1: 'x' }, ignored)).toEqual({ d2: 'cuisine' });
    expect(ignored.toResponse().ignored_fields).toEqual([
      { field: 'custom_fields.couleur_armoires', reason: 'custom_field_not_defined' },
      { field: 'custom_fields.d1', reason: 'custom_field_not_defined' },
    ]);
  });

  it('a select takes the option value, not a label: anything else is invalid_value', () => {
    const ignored = new IgnoredFields();
    expect(resolveLeadCustomFields(DEFINITIONS, { type_projet: 'Cuisine' }, ignored)).toEqual({});
    expect(ignored.toResponse().ignored_fields).toEqual([{ field: 'custom_fields.type_projet', reason: 'invalid_value' }]);
  });

  it('a name in another casing matches its one definition; a second key for it is a duplicate_field', () => {
    const ignored = new IgnoredFields();
    expect(resolveLeadCustomFields(DEFINITIONS, { budget: 'a', Budget: 'b' }, ignored)).toEqual({ d1: 'a' });
    expect(ignored.toResponse().ignored_fields).toEqual([{ field: 'custom_fields.Budget', reason: 'duplicate_field' }]);
  });

  it('a number field takes a numeric string; null and blank values are not sent', () => {
    const ignored = new IgnoredFields();
    expect(resolveLeadCustomFields(DEFINITIONS, { superficie: '850', budget: '', site_web: null }, ignored)).toEqual({ d3: 850 });
    expect(ignored.size).toBe(0);
  });
});
