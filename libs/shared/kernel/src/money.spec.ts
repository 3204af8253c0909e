import { centsToDollars, divideHalfUp, Money, scaledToText, textToScaled, toScaled } from './money';

/** operator-api › Quote taxes: exact cents, each amount rounded half-up to the cent. */
describe('money: exact decimals and half-up rounding', () => {
  it.each([
    [2.5, 4, 25000n],
    [0.0001, 4, 1n],
    [100000, 4, 1_000_000_000n],
    [4.35, 2, 435n],
    [0, 2, 0n],
  ])('toScaled(%p, %p) is %p (the decimal as written, no binary drift)', (value, scale, expected) => {
    expect(toScaled(value, scale)).toBe(expected);
  });

  it.each([[0.00001, 4], [1.005, 2], [-1, 2], [Number.NaN, 2], [Number.POSITIVE_INFINITY, 2], [1e21, 2], [1e-7, 4]])('toScaled(%p, %p) refuses', (value, scale) => {
    expect(toScaled(value, scale)).toBeNull();
  });

  it('toScaled reads 4.35 as 435 cents (4.35 * 100 is 434.99999999999994 in binary floating point)', () => {
    expect(4.35 * 100).not.toBe(435);
    expect(toScaled(4.35, 2)).toBe(435n);
    expect(toScaled(0.1 + 0.2, 4)).toBeNull(); // 0.30000000000000004 has more than four decimals
    expect(centsToDollars(435)).toBe(4.35);
  });

  it('textToScaled reads stored decimal text without going through a number', () => {
    expect(textToScaled('2.375', 4)).toBe(23750n);
    expect(textToScaled('1000000', 4)).toBe(10_000_000_000n);
    for (const text of ['', '-1', '1e3', '1.', '.5', '0.00001', ' 1']) expect(textToScaled(text, 4)).toBeNull();
  });

  it.each([
    [5n, 10n, 1n], // 0.5 → 1
    [4n, 10n, 0n],
    [15n, 10n, 2n], // 1.5 → 2
    [25n, 10n, 3n], // 2.5 → 3 (half-up, not to even)
    [-25n, 10n, -3n], // half away from zero
    [0n, 7n, 0n],
  ])('divideHalfUp(%p, %p) is %p', (numerator, denominator, expected) => {
    expect(divideHalfUp(numerator, denominator)).toBe(expected);
  });

  it('scaledToText writes the shortest decimal', () => {
    expect(scaledToText(25000n, 4)).toBe('2.5');
    expect(scaledToText(10000n, 4)).toBe('1');
    expect(scaledToText(1n, 4)).toBe('0.0001');
  });
});

/** The one parser of dollar inputs (quotes' exact-decimal rule, used for `deal_value` too). */
describe('Money.parseDollars', () => {
  it.each([
    [19.99, 1999],
    [0.01, 1],
    [1000000, 100000000],
    [0.29, 29],
    [4.35, 435],
    [1.005 * 2, 201], // 2.01 as written
    [0, 0],
    ['19.99', 1999],
    [' 7.5 ', 750],
    [0.1 + 0.2, 30], // float noise of 0.30 (within a millionth of a cent)
    [19.990000000000002, 1999],
  ])('reads %p dollars as %p cents', (input, cents) => {
    expect(Money.parseDollars(input)?.cents).toBe(cents);
  });

  it.each([-5, 12.345, 0.005, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1e-7, '1e3', '-1', '12.345', '0.30000000000000004', '', 'abc'])('refuses %p', (input) => {
    expect(Money.parseDollars(input)).toBeNull();
  });

  it('refuses more than max dollars, accepts max itself', () => {
    expect(Money.parseDollars(1e12, { max: 1e12 })?.cents).toBe(1e14);
    expect(Money.parseDollars(1e12 + 0.01, { max: 1e12 })).toBeNull();
  });

  it('gives the amount back as dollars; ofCents refuses fractions of a cent', () => {
    expect(Money.ofCents(1999).dollars).toBe(19.99);
    expect(Money.ofCents(0).isPositive()).toBe(false);
    expect(() => Money.ofCents(1.5)).toThrow(RangeError);
    expect(centsToDollars(null)).toBeNull();
  });
});
