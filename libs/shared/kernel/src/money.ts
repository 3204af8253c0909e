/**
 * Money, the one rule for every context (ARCHITECTURE › shared/kernel; operator-api › Quote taxes;
 * public-api-v1 › `deal_value`): amounts are CAD held as integer cents, every rounding is half-up (half
 * away from zero) to the cent, and a dollar input is read exactly through its shortest decimal text
 * (`String(4.35)` is `"4.35"`, what the client wrote) — never `dollars * 100`, which binary floating
 * point gets wrong (`4.35 * 100` is `434.99999999999994`). Sub-cent values (quote quantities and unit
 * prices, 4 decimals) are exact decimals held as scaled bigints.
 */

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * The non-negative decimal text `text` (`"2.375"`) as an integer scaled by 10^`scale` (`23750n` at
 * scale 4), or null when it is not a plain decimal (sign, exponent, spaces) or has more than `scale` decimals.
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

/** A scaled decimal back to its shortest text (`25000n` at scale 4 → `"2.5"`). */
export function scaledToText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** `numerator / denominator` rounded half-up (half away from zero), both signs. RangeError when `denominator` ≤ 0. */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const quotient = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -quotient : quotient;
}

/** Cents to dollars as a JSON number (`123456` → `1234.56`; null stays null). Exact: a double holds every cent amount below 2^53. */
export function centsToDollars(cents: number): number;
export function centsToDollars(cents: number | null): number | null;
export function centsToDollars(cents: number | null): number | null {
  return cents === null ? null : cents / 100;
}

/**
 * A JSON number that binary floating point put within a millionth of a cent of a whole cent (`0.1 + 0.2`
 * is `0.30000000000000004`, what a form that adds amounts in JavaScript sends): that cent. Null for a
 * real sub-cent amount (`12.345`). Contacts' `deal_value` accepted such numbers before the kernel
 * parser existed, and keeps doing so.
 */
function floatNoiseCents(value: number): bigint | null {
  if (!Number.isFinite(value) || value < 0) return null;
  const scaled = value * 100;
  const cents = Math.round(scaled);
  return Number.isSafeInteger(cents) && Math.abs(scaled - cents) <= 1e-6 ? BigInt(cents) : null;
}

/** An amount of CAD in integer cents (never a fraction of a cent). */
export class Money {
  private constructor(readonly cents: number) {}

  /** RangeError when `cents` is not a safe integer. */
  static ofCents(cents: number): Money {
    if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
    return new Money(cents);
  }

  /**
   * The one parser of dollar inputs: a JSON number, or a decimal string (`"19.99"`, surrounding spaces
   * ignored), that is non-negative, plain (no sign, no exponent) and has at most two decimals as
   * written, up to `max` dollars when given. Null otherwise (the caller answers with its own
   * `validation_error` reason). `0.1 + 0.2` (`0.30000000000000004`) is refused, `4.35` is 435 cents.
   */
  static parseDollars(input: number | string, options: { max?: number } = {}): Money | null {
    const cents = typeof input === 'string' ? textToScaled(input.trim(), 2) : typeof input === 'number' ? (toScaled(input, 2) ?? floatNoiseCents(input)) : null;
    if (cents === null || cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    if (options.max !== undefined && cents > BigInt(Math.round(options.max * 100))) return null;
    return new Money(Number(cents));
  }

  /** The amount as a JSON number of dollars (`1999` cents → `19.99`). */
  get dollars(): number {
    return this.cents / 100;
  }

  isPositive(): boolean {
    return this.cents > 0;
  }
}
