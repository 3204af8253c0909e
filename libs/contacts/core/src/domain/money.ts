/** Largest `deal_value` accepted, in dollars (cents stay far below 2^53). */
export const MAX_DEAL_VALUE = 1_000_000_000_000;

/**
 * CAD dollars → integer cents. Null when the amount is not a finite positive number with at most
 * two decimals, or exceeds {@link MAX_DEAL_VALUE}.
 */
export function dollarsToCents(dollars: number): number | null {
  if (typeof dollars !== 'number' || !Number.isFinite(dollars) || dollars <= 0 || dollars > MAX_DEAL_VALUE) return null;
  const cents = Math.round(dollars * 100);
  if (Math.abs(dollars * 100 - cents) > 1e-6 || cents <= 0) return null;
  return cents;
}

export function centsToDollars(cents: number | null): number | null {
  return cents === null ? null : cents / 100;
}
