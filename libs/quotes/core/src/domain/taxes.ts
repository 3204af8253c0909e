import type { TaxProfile } from '@leadflow/quotes-contracts';
import { divideHalfUp, toScaled } from './money';

/** Quantities carry at most 4 decimals (`2.5`, `0.3333`). */
export const QUANTITY_SCALE = 4;
const QUANTITY_UNIT = 10n ** BigInt(QUANTITY_SCALE);

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
  /** Null for a line not priced yet (counts 0 in the totals). */
  unitPriceCents: number | null;
}

export interface QuoteTotals {
  subtotalCents: number;
  tpsCents: number;
  tvqCents: number;
  totalCents: number;
}

function quantityUnits(quantity: string): bigint {
  const units = toScaled(Number(quantity), QUANTITY_SCALE);
  if (units === null) throw new RangeError(`invalid stored quantity ${quantity}`);
  return units;
}

/** quantity × unit price rounded half-up to the cent (null when unpriced). */
export function lineAmountCents(line: PricedLine): number | null {
  if (line.unitPriceCents === null) return null;
  return Number(divideHalfUp(quantityUnits(line.quantity) * BigInt(line.unitPriceCents), QUANTITY_UNIT));
}

/**
 * operator-api › Quote taxes: `subtotal` = Σ quantity × unit_price (exact), rounded half-up to the cent
 * once; `tps_amount` = 5 % and `tvq_amount` = 9.975 % of the subtotal, each rounded half-up to the cent;
 * `total` = subtotal + taxes. A quote with a tax exemption reason (or the `none` profile) has both taxes 0.
 */
export function computeTotals(lines: readonly PricedLine[], profile: TaxProfile, exempt: boolean): QuoteTotals {
  let exact = 0n;
  for (const line of lines) {
    if (line.unitPriceCents !== null) exact += quantityUnits(line.quantity) * BigInt(line.unitPriceCents);
  }
  const subtotal = divideHalfUp(exact, QUANTITY_UNIT);
  const rates = RATES[profile];
  const tps = exempt || !rates.tps ? 0n : divideHalfUp(subtotal * TPS.numerator, TPS.denominator);
  const tvq = exempt || !rates.tvq ? 0n : divideHalfUp(subtotal * TVQ.numerator, TVQ.denominator);
  return { subtotalCents: Number(subtotal), tpsCents: Number(tps), tvqCents: Number(tvq), totalCents: Number(subtotal + tps + tvq) };
}
