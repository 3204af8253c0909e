/**
 * Exact money arithmetic for quotes (operator-api › Quote taxes; README › Decisions › Sub-cent unit
 * prices): stored amounts are integer cents, quantities and unit prices exact decimals held as scaled
 * bigints (4 decimals), and every rounding is half-up to the cent. This module is the quotes context's
 * only money rule: line amounts, totals, taxes, deposits, instalments, the public page and the email all
 * go through it. No binary floating point is used on amounts: a JSON number is read through its shortest
 * decimal text (`String(2.675)` is `"2.675"`, exactly what the client wrote).
 */

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * The non-negative decimal text `text` (`"2.375"`) as an integer scaled by 10^`scale` (`23750n` at
 * scale 4), or null when it is not a plain decimal (sign, exponent) or has more than `scale` decimals.
 */
export function textToScaled(text: string, scale: number): bigint | null {
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  if (fraction.length > scale) return null;
  return BigInt(whole + fraction.padEnd(scale, '0'));
}

/**
 * The non-negative number `value` as an integer scaled by 10^`scale` (`2.5` at scale 4 is `25000n`), or
 * null when it is not finite, negative, written in exponent form, or has more than `scale` decimals.
 */
export function toScaled(value: number, scale: number): bigint | null {
  if (!Number.isFinite(value) || value < 0) return null;
  return textToScaled(String(value), scale);
}

/** `numerator / denominator` rounded half-up (half away from zero), both signs. */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -quotient : quotient;
}

/** Cents to dollars as a JSON number (`123456` → `1234.56`). Exact: a double holds every cent amount below 2^53. */
export function centsToDollars(cents: number): number {
  return cents / 100;
}

/** A scaled decimal back to its shortest text (`25000n` at scale 4 → `"2.5"`). */
export function scaledToText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
