import { DEFAULT_TAG_COLOR, isReservedTagName, normalizeTagInput } from './tag-rules';

describe('names beginning with "Campagne :" are reserved (public-api-v1 › Tag)', () => {
  it.each([
    'Campagne : Été 2026',
    'campagne:',
    'CAMPAGNE  :  x',
    '  Campagne:x',
    'cAmPaGnE\t: x',
    'Campagne\u00a0: x',
    'Campagne\u202f:x',
    'Campagne ：x',
  ])('reserves %p', (name) => {
    expect(isReservedTagName(name)).toBe(true);
  });

  it.each(['Campagne', 'Campagnes : x', 'Ma Campagne : x', 'Campagne - x', 'VIP'])('allows %p', (name) => {
    expect(isReservedTagName(name)).toBe(false);
  });

  it('reports reserved_prefix on field name', () => {
    expect(normalizeTagInput({ name: 'CAMPAGNE  :  x' }).violations).toEqual([expect.objectContaining({ field: 'name', reason: 'reserved_prefix' })]);
  });
});

describe('tag input', () => {
  it('requires a name (missing or blank)', () => {
    expect(normalizeTagInput({}).violations).toEqual([expect.objectContaining({ field: 'name', reason: 'required' })]);
    expect(normalizeTagInput({ name: '   ' }).violations).toEqual([expect.objectContaining({ field: 'name', reason: 'required' })]);
  });

  it('defaults the color to #6b7280 and lowercases a given one', () => {
    expect(normalizeTagInput({ name: 'VIP' }).tag.color).toBe(DEFAULT_TAG_COLOR);
    expect(normalizeTagInput({ name: 'VIP', color: '#FF00AA' }).tag.color).toBe('#ff00aa');
  });

  it.each(['red', '#fff', '#GGGGGG', 'ff00aa', '#ff00aa0'])('refuses the color %p with invalid_format', (color) => {
    expect(normalizeTagInput({ name: 'VIP', color }).violations).toEqual([expect.objectContaining({ field: 'color', reason: 'invalid_format' })]);
  });

  it('trims the name and keeps its case; blank description and category read null', () => {
    expect(normalizeTagInput({ name: '  Vip  ', description: ' ', category: ' leads ' }).tag).toEqual({
      name: 'Vip',
      color: DEFAULT_TAG_COLOR,
      description: null,
      category: 'leads',
    });
  });
});
