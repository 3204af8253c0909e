import { unstorableTextViolations } from './unstorable-text';

describe('unstorableTextViolations (characters PostgreSQL cannot store)', () => {
  it('reports NUL and unpaired surrogates with the path of each value or member name', () => {
    expect(
      unstorableTextViolations({ a: 'x\u0000', b: ['ok', '\ud800'], c: { 'k\u0000': 1, d: 'y\udc00' } }).map(({ field, reason }) => [field, reason]),
    ).toEqual([
      ['a', 'invalid_characters'],
      ['b[1]', 'invalid_characters'],
      ['c.d', 'invalid_characters'],
      ['c.k\u0000', 'invalid_characters'],
    ]);
  });

  it('accepts paired surrogates, other control characters and non-string values', () => {
    expect(unstorableTextViolations({ emoji: '👩‍🔧', tab: 'a\tb', n: 1, t: true, z: null, list: [[], {}] })).toEqual([]);
  });

  it('walks any depth without recursion and caps the report at 20 violations', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 10_000; i += 1) deep = [deep];
    expect(unstorableTextViolations(deep)).toHaveLength(1);
    expect(unstorableTextViolations(Array.from({ length: 50 }, () => '\u0000'))).toHaveLength(20);
  });
});
