import { computeTotals, lineAmountCents } from './taxes';

describe('quote totals (operator-api › Quote taxes)', () => {
  it('a line is quantity × unit price rounded half-up to the cent: 0.5 × 0.01 = 0.005 → 0.01', () => {
    expect(lineAmountCents({ quantity: '0.5', unitPrice: '0.01' })).toBe(1);
  });

  it('fractional quantities are exact: 2.5 × 10.01 = 25.025 → 25.03 (half-up, where rounding to even gives 25.02)', () => {
    expect(lineAmountCents({ quantity: '2.5', unitPrice: '10.01' })).toBe(2503);
  });

  it('an unpriced line has no amount and counts 0', () => {
    expect(lineAmountCents({ quantity: '3', unitPrice: null })).toBeNull();
    expect(computeTotals([{ quantity: '3', unitPrice: null }, { quantity: '1', unitPrice: '10' }], 'gst_qst', false).subtotalCents).toBe(1000);
  });

  it('subtotal = Σ quantity × unit_price rounded once: two lines of 0.005 make 0.01', () => {
    const totals = computeTotals(
      [
        { quantity: '0.5', unitPrice: '0.01' },
        { quantity: '0.5', unitPrice: '0.01' },
      ],
      'none',
      false,
    );
    expect(totals.subtotalCents).toBe(1);
  });

  it('gst_qst: TPS 5 % and TVQ 9.975 % each rounded half-up: 100.00 → 5.00 + 9.98 = 114.98', () => {
    expect(computeTotals([{ quantity: '1', unitPrice: '100' }], 'gst_qst', false)).toEqual({
      subtotalCents: 10_000,
      tpsCents: 500,
      tvqCents: 998,
      totalCents: 11_498,
    });
  });

  it('TVQ half cent rounds up: 60.00 → TVQ 5.985 → 5.99 (TPS 3.00, total 68.99)', () => {
    expect(computeTotals([{ quantity: '1', unitPrice: '60' }], 'gst_qst', false)).toEqual({ subtotalCents: 6000, tpsCents: 300, tvqCents: 599, totalCents: 6899 });
  });

  it('TPS half cent rounds up: 0.30 → TPS 0.015 → 0.02, TVQ 0.029925 → 0.03', () => {
    expect(computeTotals([{ quantity: '3', unitPrice: '0.1' }], 'gst_qst', false)).toEqual({ subtotalCents: 30, tpsCents: 2, tvqCents: 3, totalCents: 35 });
  });

  it('no floating point drift: 3 × 0.10 is 0.30 and 4.35 × 1 is 4.35', () => {
    expect(computeTotals([{ quantity: '3', unitPrice: '0.1' }], 'none', false).subtotalCents).toBe(30);
    expect(computeTotals([{ quantity: '4.35', unitPrice: '1' }], 'none', false).subtotalCents).toBe(435);
  });

  it('a realistic quote: 2.5 h × 85.00 + 1 × 1234.56 + 12.75 m² × 3.49', () => {
    const totals = computeTotals(
      [
        { quantity: '2.5', unitPrice: '85' },
        { quantity: '1', unitPrice: '1234.56' },
        { quantity: '12.75', unitPrice: '3.49' },
      ],
      'gst_qst',
      false,
    );
    // 212.50 + 1234.56 + 44.4975 = 1491.5575 → 1491.56; TPS 74.578 → 74.58; TVQ 148.783110 → 148.78
    expect(totals).toEqual({ subtotalCents: 149_156, tpsCents: 7458, tvqCents: 14_878, totalCents: 171_492 });
  });

  it('gst profile: TPS only; none: no tax', () => {
    expect(computeTotals([{ quantity: '1', unitPrice: '100' }], 'gst', false)).toMatchObject({ tpsCents: 500, tvqCents: 0, totalCents: 10_500 });
    expect(computeTotals([{ quantity: '1', unitPrice: '100' }], 'none', false)).toMatchObject({ tpsCents: 0, tvqCents: 0, totalCents: 10_000 });
  });

  it('a tax exemption sets both taxes to 0', () => {
    expect(computeTotals([{ quantity: '1', unitPrice: '100' }], 'gst_qst', true)).toEqual({ subtotalCents: 10_000, tpsCents: 0, tvqCents: 0, totalCents: 10_000 });
  });

  it('large amounts stay exact: 100000 × 1000000.00 × 20 lines', () => {
    const line = { quantity: '100000', unitPrice: '1000000' };
    const totals = computeTotals(Array.from({ length: 20 }, () => line), 'gst_qst', false);
    expect(totals.subtotalCents).toBe(200_000_000_000_000);
    expect(totals.tpsCents).toBe(10_000_000_000_000);
    expect(totals.tvqCents).toBe(19_950_000_000_000);
    expect(Number.isSafeInteger(totals.totalCents)).toBe(true);
  });
});

/** Issue 13 item 3, README › Decisions › Sub-cent unit prices. */
describe('sub-cent unit prices: exact line amounts, subtotal rounded half-up once, each tax on the rounded subtotal', () => {
  it('1 × 0.50 gives subtotal 0.50, GST 0.03, QST 0.05, total 0.58', () => {
    // GST 0.025 → 0.03 (half-up); QST 0.049875 → 0.05
    expect(computeTotals([{ quantity: '1', unitPrice: '0.5' }], 'gst_qst', false)).toEqual({ subtotalCents: 50, tpsCents: 3, tvqCents: 5, totalCents: 58 });
  });

  it('3 × 0.333 gives subtotal 1.00 (0.999 rounded once)', () => {
    expect(computeTotals([{ quantity: '3', unitPrice: '0.333' }], 'gst_qst', false)).toEqual({ subtotalCents: 100, tpsCents: 5, tvqCents: 10, totalCents: 115 });
  });

  it('a per-square-foot price: 1250.5 ft² × 2.375 = 2969.9375 → subtotal 2969.94', () => {
    expect(lineAmountCents({ quantity: '1250.5', unitPrice: '2.375' })).toBe(296_994);
    // GST 148.497 → 148.50; QST 296.251515 → 296.25
    expect(computeTotals([{ quantity: '1250.5', unitPrice: '2.375' }], 'gst_qst', false)).toEqual({
      subtotalCents: 296_994,
      tpsCents: 14_850,
      tvqCents: 29_625,
      totalCents: 341_469,
    });
  });

  it('4 decimals on both sides stay exact: 0.0001 × 0.0001 counts, and the sum of sub-cent lines is rounded once', () => {
    // three lines of 1 × 0.005: each shows 0.01, the exact sum 0.015 makes a subtotal of 0.02 (not 0.03)
    const lines = Array.from({ length: 3 }, () => ({ quantity: '1', unitPrice: '0.005' }));
    expect(lines.map(lineAmountCents)).toEqual([1, 1, 1]);
    expect(computeTotals(lines, 'none', false).subtotalCents).toBe(2);
    // 0.0001 × 0.0001 = 0.00000001 $ is kept exactly but shows as 0.00; 5000 × 0.0001 is half a dollar
    expect(lineAmountCents({ quantity: '0.0001', unitPrice: '0.0001' })).toBe(0);
    expect(computeTotals([{ quantity: '5000', unitPrice: '0.0001' }], 'none', false).subtotalCents).toBe(50);
  });

  it('half a cent of exact sum rounds up: 1 × 0.0049 + 1 × 0.0001 = 0.005 → 0.01', () => {
    expect(
      computeTotals(
        [
          { quantity: '1', unitPrice: '0.0049' },
          { quantity: '1', unitPrice: '0.0001' },
        ],
        'none',
        false,
      ).subtotalCents,
    ).toBe(1);
    expect(computeTotals([{ quantity: '1', unitPrice: '0.0049' }], 'none', false).subtotalCents).toBe(0);
  });

  it('the largest quote stays a safe integer: 200 lines of 100000 × 1000000', () => {
    const totals = computeTotals(Array.from({ length: 200 }, () => ({ quantity: '100000', unitPrice: '1000000' })), 'gst_qst', false);
    expect(totals.subtotalCents).toBe(2_000_000_000_000_000);
    expect(Number.isSafeInteger(totals.totalCents)).toBe(true);
  });

  it('a stored value that is not a decimal of at most 4 places is a bug, not a price', () => {
    expect(() => computeTotals([{ quantity: '1', unitPrice: '0.00001' }], 'none', false)).toThrow(RangeError);
  });
});
