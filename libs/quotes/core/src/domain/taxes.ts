import { divideHalfUp, textToScaled } from '@leadflow/shared-kernel';
import type { TaxProfile } from '@leadflow/quotes-contracts';

/** Quantities carry at most 4 decimals (`2.5`, `0.3333`). */
export const QUANTITY_SCALE = 4;
/** Unit prices carry at most 4 decimals of a dollar (`2.375` $ per square foot, `0.0125` $ per unit). */
export const UNIT_PRICE_SCALE = 4;
/** An exact line amount is counted in 10^-8 dollars (quantity units × price units); this many make a cent. */
const EXACT_PER_CENT = 10n ** BigInt(QUANTITY_SCALE + UNIT_PRICE_SCALE - 2);

/** TPS (GST) 5 % and TVQ (QST) 9.975 % as exact fractions. */
const TPS = { numerator: 5n, denominator: 100n };
const TVQ = { numerator: 9975n, denominator: 100_000n };

/** Rates of each profile (`TAX_PROFILES`): `gst_qst` both, `gst` TPS only, `none` neither. */
const RATES: Record<TaxProfile, { tps: boolean; tvq: boolean }> = {
  gst_qst: { tps: true, tvq: true },
  gst: { tps: true, tvq: false },
  none: { tps: false, tvq: false },
};

export interface PricedLine {
  /** Decimal text, at most 4 decimals. */
  quantity: string;
  /** Dollars as decimal text, at most 4 decimals; null for a line not priced yet (counts 0 in the totals). */
  unitPrice: string | null;
}

export interface QuoteTotals {
  subtotalCents: number;
  tpsCents: number;
  tvqCents: number;
  totalCents: number;
}

function units(text: string, scale: number, what: string): bigint {
  const value = textToScaled(text, scale);
  if (value === null) throw new RangeError(`invalid stored ${what} ${text}`);
  return value;
}

/** quantity × unit price, exact, in 10^-8 dollars (null when unpriced). */
function exactAmount(line: PricedLine): bigint | null {
  if (line.unitPrice === null) return null;
  return units(line.quantity, QUANTITY_SCALE, 'quantity') * units(line.unitPrice, UNIT_PRICE_SCALE, 'unit price');
}

/**
 * The amount shown for a line: quantity × unit price (exact) rounded half-up to the cent; null when
 * unpriced. Display only: the subtotal is rounded once from the exact sum, not from these.
 */
export function lineAmountCents(line: PricedLine): number | null {
  const exact = exactAmount(line);
  return exact === null ? null : Number(divideHalfUp(exact, EXACT_PER_CENT));
}

/**
 * operator-api › Quote taxes: `subtotal` = Σ quantity × unit_price (exact, sub-cent prices included),
 * rounded half-up to the cent once; `tps_amount` = 5 % and `tvq_amount` = 9.975 % of that rounded
 * subtotal, each rounded half-up to the cent; `total` = subtotal + taxes. A quote with a tax exemption
 * reason (or the `none` profile) has both taxes 0. Example: 1 × 0.50 → 0.50, 0.03, 0.05, 0.58; 3 × 0.333 → 1.00.
 */
export function computeTotals(lines: readonly PricedLine[], profile: TaxProfile, exempt: boolean): QuoteTotals {
  let exact = 0n;
  for (const line of lines) exact += exactAmount(line) ?? 0n;
  const subtotal = divideHalfUp(exact, EXACT_PER_CENT);
  const rates = RATES[profile];
  const tps = exempt || !rates.tps ? 0n : divideHalfUp(subtotal * TPS.numerator, TPS.denominator);
  const tvq = exempt || !rates.tvq ? 0n : divideHalfUp(subtotal * TVQ.numerator, TVQ.denominator);
  return { subtotalCents: Number(subtotal), tpsCents: Number(tps), tvqCents: Number(tvq), totalCents: Number(subtotal + tps + tvq) };
}
