import { Money } from '@leadflow/shared-kernel';

/** Largest `deal_value` accepted, in dollars (cents stay far below 2^53). */
export const MAX_DEAL_VALUE = 1_000_000_000_000;

/**
 * `deal_value` (public-api-v1 › Contacts: CAD, positive amounts only) in integer cents, read by the
 * kernel's one dollar parser ({@link Money.parseDollars}: at most two decimals as written, a JSON number
 * or a decimal string). Null when it is not a positive amount up to {@link MAX_DEAL_VALUE}.
 */
export function dealValueToCents(dollars: number | string): number | null {
  const money = Money.parseDollars(dollars, { max: MAX_DEAL_VALUE });
  return money?.isPositive() ? money.cents : null;
}
