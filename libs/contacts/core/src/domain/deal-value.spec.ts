import { dealValueToCents } from './deal-value';

describe('deal_value: positive CAD amounts stored as cents', () => {
  it.each([
    [19.99, 1999],
    [0.01, 1],
    [1000000, 100000000],
    [0.29, 29],
    [1.005 * 2, 201],
    ['42.5', 4250],
    [0.1 + 0.2, 30], // binary float noise of 0.30, as a form adding amounts in JavaScript sends it
    [19.990000000000002, 1999],
  ])('converts %p dollars to %p cents', (dollars, cents) => {
    expect(dealValueToCents(dollars)).toBe(cents);
  });

  it.each([0, -5, 12.345, 0.005, Number.NaN, Number.POSITIVE_INFINITY, 1e13, '0', '1e3'])('refuses %p', (dollars) => {
    expect(dealValueToCents(dollars)).toBeNull();
  });
});
