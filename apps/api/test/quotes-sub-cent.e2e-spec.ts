import { DataSource } from 'typeorm';
import { quotesMigrations } from '@leadflow/quotes-adapters';
import { FixedClock, newId } from '@leadflow/shared-kernel';
import { db, expectStatus } from './support/contacts-fixtures';
import {
  createQuote,
  getQuote,
  leadAction,
  pagePath,
  patchQuote,
  quoteEmails,
  quoteRows,
  quotesBlueprint,
  quoteWriteCounts,
  sendQuote,
} from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * Sub-cent unit prices (issue 13 item 3; README › Decisions › Sub-cent unit prices; operator-api › Quote
 * taxes): `unit_price` and `quantity` with up to 4 decimals, the line amount exact, `subtotal` the sum
 * rounded half-up to the cent once, each tax rounded half-up on the rounded subtotal, amounts answered in
 * dollars with 2 decimals and `unit_price` echoed as given; the same rule on the page, the email, the
 * payment plans and the webhooks' payload. On real PostgreSQL with a FixedClock.
 */
describe('quotes: sub-cent unit prices', () => {
  const clock = new FixedClock(new Date('2026-05-03T14:00:00.000Z'));
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(quotesBlueprint());
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());

  const line = (description: string, quantity: number, unitPrice: number) => ({ description, quantity, unit_price: unitPrice });
  const stored = async (id: string) => (await db(api).query(`SELECT * FROM quotes.quotes WHERE account_id = $1 AND id = $2`, [account.account_id, id]))[0];

  it('sub-cent unit prices: 1 × 0.50 gives subtotal 0.50, GST 0.03, QST 0.05, total 0.58 (stored in cents, line price as exact text)', async () => {
    const response = await api.request({ method: 'POST', path: '/v1/quotes', token, body: { line_items: [line('Frais', 1, 0.5)] } });
    expect(response.status).toBe(201);
    const quote = response.body.data;
    expect(quote).toMatchObject({ line_items: [{ description: 'Frais', quantity: 1, unit_price: 0.5, amount: 0.5 }], subtotal: 0.5, tps_amount: 0.03, tvq_amount: 0.05, total: 0.58 });
    const row = await stored(quote.id);
    expect(row).toMatchObject({ subtotal_cents: '50', tps_cents: '3', tvq_cents: '5', total_cents: '58' });
    expect(row.line_items).toEqual([{ description: 'Frais', quantity: '1', unit_price: '0.5' }]);
    const [event] = await db(api).query(`SELECT payload FROM platform.outbox WHERE type = 'quote_created' AND payload->>'quote_id' = $1`, [quote.id]);
    expect(event.payload.quote).toMatchObject({ line_items: [{ unit_price: 0.5, amount: 0.5 }], subtotal: 0.5, tps_amount: 0.03, tvq_amount: 0.05, total: 0.58 });
  });

  it('sub-cent unit prices: 3 × 0.333 gives subtotal 1.00 (the exact 0.999 rounded once); unit_price echoed as given', async () => {
    const quote = await createQuote(api, token, { line_items: [line('Vis', 3, 0.333)] });
    expect(quote).toMatchObject({ line_items: [{ quantity: 3, unit_price: 0.333, amount: 1 }], subtotal: 1, tps_amount: 0.05, tvq_amount: 0.1, total: 1.15 });
    expect((await stored(quote.id)).line_items).toEqual([{ description: 'Vis', quantity: '3', unit_price: '0.333' }]);
  });

  it('sub-cent unit prices: the line amount is exact and the subtotal is rounded once from the exact sum (not from the rounded lines)', async () => {
    // three lines of 1 × 0.005: each line shows 0.01, the exact sum 0.015 makes a subtotal of 0.02
    const quote = await createQuote(api, token, { tax_profile_id: 'none', line_items: [line('A', 1, 0.005), line('B', 1, 0.005), line('C', 1, 0.005)] });
    expect(quote.line_items.map((item: any) => item.amount)).toEqual([0.01, 0.01, 0.01]);
    expect(quote).toMatchObject({ subtotal: 0.02, total: 0.02 });
    // 1250.5 ft² × 2.375 $ = 2969.9375 and 2 × 0.0049 = 0.0098: 2969.9473 → 2969.95; GST 148.4975 → 148.50; QST 296.252513 → 296.25
    const floor = await createQuote(api, token, { line_items: [line('Plancher (pi²)', 1250.5, 2.375), line('Clous', 2, 0.0049)] });
    expect(floor).toMatchObject({
      line_items: [
        { quantity: 1250.5, unit_price: 2.375, amount: 2969.94 },
        { quantity: 2, unit_price: 0.0049, amount: 0.01 },
      ],
      subtotal: 2969.95,
      tps_amount: 148.5,
      tvq_amount: 296.25,
      total: 3414.7,
    });
    expect(await getQuote(api, token, floor.id)).toMatchObject({ line_items: floor.line_items, subtotal: 2969.95, total: 3414.7 });
    const listed = (await api.request({ path: '/v1/quotes', token })).body.data.find((item: any) => item.id === floor.id);
    expect(listed).toMatchObject({ line_items: floor.line_items, subtotal: 2969.95, total: 3414.7 });
  });

  it('sub-cent unit prices: quantity and unit_price accept 4 decimals at most (400 validation_error reason invalid_value), nothing written', async () => {
    expect(await createQuote(api, token, { line_items: [line('Max', 0.0001, 0.0001), line('Gros', 100_000, 1_000_000)] })).toMatchObject({
      line_items: [
        { quantity: 0.0001, unit_price: 0.0001, amount: 0 },
        { quantity: 100_000, unit_price: 1_000_000, amount: 100_000_000_000 },
      ],
      subtotal: 100_000_000_000,
    });
    const before = await quoteWriteCounts(api);
    for (const [item, field, reason] of [
      [line('A', 1, 2.37501), 'line_items[0].unit_price', 'invalid_value'],
      [line('A', 1.00001, 2.375), 'line_items[0].quantity', 'invalid_value'],
      [line('A', 1, 1e-7), 'line_items[0].unit_price', 'invalid_value'],
      [line('A', 1, -0.0001), 'line_items[0].unit_price', 'out_of_range'],
      [line('A', 1, 1_000_000.0001), 'line_items[0].unit_price', 'out_of_range'],
      [{ description: 'A', unit_price: '2.375' }, 'line_items[0].unit_price', 'invalid_type'],
    ] as const) {
      const response = await api.request({ method: 'POST', path: '/v1/quotes', token, body: { line_items: [item] } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', type: 'invalid_request_error' });
      expect(response.body.details).toContainEqual(expect.objectContaining({ field, reason }));
    }
    expect(await quoteWriteCounts(api)).toEqual(before);
  });

  it('sub-cent unit prices: the public page shows the unit price as given (2,375 $) and the amounts with 2 decimals; the email the same total', async () => {
    const quote = await createQuote(api, token, {
      prospect_email: `plancher-${newId()}@example.com`,
      line_items: [line('Plancher (pi²)', 1250.5, 2.375), line('Frais', 1, 0.5)],
    });
    // 2969.9375 + 0.50 = 2970.4375 → 2970.44; GST 148.522 → 148.52; QST 296.301390 → 296.30; total 3415.26
    expect(quote).toMatchObject({ subtotal: 2970.44, tps_amount: 148.52, tvq_amount: 296.3, total: 3415.26 });
    expectStatus(await sendQuote(api, token, quote.id), 200);
    const email = (await quoteEmails(api, account)).find((row) => row.to === quote.prospect_email);
    expect(email!.html).toContain('3\u00a0415,26\u00a0$');
    const html: string = (await api.request({ path: pagePath(email!.html) })).body;
    expect(html).toContain('1\u00a0250,5');
    expect(html).toContain('2,375\u00a0$');
    expect(html).toContain('2\u00a0969,94\u00a0$');
    expect(html).toContain('0,50\u00a0$');
    expect(html).toContain('2\u00a0970,44\u00a0$');
    expect(html).toContain('148,52\u00a0$');
    expect(html).toContain('296,30\u00a0$');
    expect(html).toContain('3\u00a0415,26\u00a0$');
  });

  it('sub-cent unit prices: payment plans use the rounded total (deposit half-up, instalments with the last absorbing the rounding)', async () => {
    // 3 × 0.333 → total 1.15: a 30 % deposit is 0.345 → 0.35, then the balance 0.80
    const deposit = await createQuote(api, token, { prospect_email: `acompte-${newId()}@example.com`, line_items: [line('Vis', 3, 0.333)] });
    expectStatus(await patchQuote(api, token, deposit.id, { payment_plan_type: 'deposit', payment_deposit_type: 'percentage', payment_deposit_value: 30 }), 200);
    expectStatus(await sendQuote(api, token, deposit.id), 200);
    expectStatus(await leadAction(api, account, deposit.id, 'sign'), 200);
    expect(expectStatus(await leadAction(api, account, deposit.id, 'pay'), 200).body.data).toMatchObject({ status: 'signed', amount_paid: 0.35 });
    expect(expectStatus(await leadAction(api, account, deposit.id, 'pay'), 200).body.data).toMatchObject({ status: 'paid', amount_paid: 1.15 });
    const payments = await db(api).query(`SELECT amount_cents FROM quotes.quote_payments WHERE account_id = $1 AND quote_id = $2 ORDER BY recorded_at, id`, [account.account_id, deposit.id]);
    expect(payments.map((row: any) => row.amount_cents).sort()).toEqual(['35', '80']);
    // 3 instalments of 1.15: 0.38, 0.38, 0.39
    const installments = await createQuote(api, token, { prospect_email: `versements-${newId()}@example.com`, line_items: [line('Vis', 3, 0.333)] });
    expectStatus(await patchQuote(api, token, installments.id, { payment_plan_type: 'installments', payment_installments_count: 3, payment_interval_days: 30 }), 200);
    expectStatus(await sendQuote(api, token, installments.id), 200);
    expectStatus(await leadAction(api, account, installments.id, 'sign'), 200);
    const paid = [];
    for (let i = 0; i < 3; i += 1) paid.push(expectStatus(await leadAction(api, account, installments.id, 'pay'), 200).body.data.amount_paid);
    expect(paid).toEqual([0.38, 0.76, 1.15]);
  });

  it('a PATCH recomputes the totals with the same rule (tax_exempt_reason, tax_profile_id)', async () => {
    const quote = await createQuote(api, token, { line_items: [line('Frais', 1, 0.5)] });
    expect((await patchQuote(api, token, quote.id, { tax_profile_id: 'gst' })).body.data).toMatchObject({ subtotal: 0.5, tps_amount: 0.03, tvq_amount: 0, total: 0.53 });
    expect((await patchQuote(api, token, quote.id, { tax_exempt_reason: 'Exportation' })).body.data).toMatchObject({ subtotal: 0.5, tps_amount: 0, tvq_amount: 0, total: 0.5 });
    expect((await stored(quote.id)).line_items).toEqual([{ description: 'Frais', quantity: '1', unit_price: '0.5' }]);
  });

  it('migration QuotesSubCentUnitPrices: a line stored in cents (unit_price_cents) is read as dollars and rewritten as exact text', async () => {
    const quote = await createQuote(api, token, { line_items: [line('Armoires', 1, 4200), line('Pose', 2.5, 85)] });
    const legacy = [
      { description: 'Armoires', quantity: '1', unit_price_cents: 420_000 },
      { description: 'Pose', quantity: '2.5', unit_price_cents: 8500 },
      { description: 'À chiffrer', quantity: '1', unit_price_cents: null },
    ];
    await db(api).query(`UPDATE quotes.quotes SET line_items = $3::jsonb WHERE account_id = $1 AND id = $2`, [account.account_id, quote.id, JSON.stringify(legacy)]);
    // a row an older process wrote reads the same
    expect((await getQuote(api, token, quote.id)).line_items).toEqual([
      { description: 'Armoires', quantity: 1, unit_price: 4200, amount: 4200 },
      { description: 'Pose', quantity: 2.5, unit_price: 85, amount: 212.5 },
      { description: 'À chiffrer', quantity: 1, unit_price: null, amount: null },
    ]);
    const migration = quotesMigrations.find((candidate) => candidate.name === 'QuotesSubCentUnitPrices1796100000000');
    const runner = api.app.get(DataSource).createQueryRunner();
    try {
      await new migration!().up(runner);
    } finally {
      await runner.release();
    }
    expect((await stored(quote.id)).line_items).toEqual([
      { description: 'Armoires', quantity: '1', unit_price: '4200' },
      { description: 'Pose', quantity: '2.5', unit_price: '85' },
      { description: 'À chiffrer', quantity: '1', unit_price: null },
    ]);
    const rows = await quoteRows(api, account.account_id);
    expect(rows.every((row: any) => row.line_items.every((item: any) => !('unit_price_cents' in item)))).toBe(true);
  });
});
