import { centsToDollars, dollarsToCents } from './money';

describe('deal_value: positive CAD amounts stored as cents', () => {
  it.each([
    [19.99, 1999],
    [0.01, 1],
    [1000000, 100000000],
    [0.29, 29],
    [1.005 * 2, 201],
  ])('converts %p dollars to %p cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it.each([0, -5, 12.345, Number.NaN, Number.POSITIVE_INFINITY, 1e13])('refuses %p', (dollars) => {
    expect(dollarsToCents(dollars)).toBeNull();
  });

  it('reads cents back as dollars', () => {
    expect(centsToDollars(1999)).toBe(19.99);
    expect(centsToDollars(null)).toBeNull();
  });
});
