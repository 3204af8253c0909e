import { newId } from '@leadflow/shared-kernel';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { envelope, expectStatus } from './support/contacts-fixtures';
import { createQuote, leadAction, quoteEmails, quoteRows, quotesBlueprint, quoteWriteCounts, SENDABLE, sendQuote } from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * Every quotes route: scopes `quotes:read` / `quotes:write` and the plan module `quotes` (public-api-v1 ›
 * Authentication), tenant isolation (another account's quote behaves as missing), and bad input on every
 * body route (a 4xx envelope, never 500, nothing written).
 */
describe('quotes: scopes, plan module, tenant isolation and bad input', () => {
  let api: TestApi;
  let mine: ProvisionedAccount;
  let theirs: ProvisionedAccount;
  let token: string;
  let myQuote: Record<string, any>;
  let theirQuote: Record<string, any>;
  let theirSent: Record<string, any>;

  beforeAll(async () => {
    api = await TestApi.start();
    mine = await api.provision(quotesBlueprint());
    theirs = await api.provision(quotesBlueprint());
    token = mine.api_keys.full.key;
    myQuote = await createQuote(api, token, SENDABLE);
    theirQuote = await createQuote(api, theirs.api_keys.full.key, SENDABLE);
    theirSent = await createQuote(api, theirs.api_keys.full.key, { ...SENDABLE, prospect_email: 'their.lead@example.com' });
    expectStatus(await sendQuote(api, theirs.api_keys.full.key, theirSent.id), 200);
  });
  afterAll(() => api.close());

  type Route = [string, (key: string, quoteId: string) => Promise<TestResponse>, string];
  const routes: Route[] = [
    ['GET /v1/quotes', (key) => api.request({ path: '/v1/quotes', token: key }), 'quotes:read'],
    ['GET /v1/quotes/{id}', (key, id) => api.request({ path: `/v1/quotes/${id}`, token: key }), 'quotes:read'],
    ['POST /v1/quotes', (key) => api.request({ method: 'POST', path: '/v1/quotes', token: key, body: { prospect_name: 'X' } }), 'quotes:write'],
    ['PATCH /v1/quotes/{id}', (key, id) => api.request({ method: 'PATCH', path: `/v1/quotes/${id}`, token: key, body: { internal_notes: 'X' } }), 'quotes:write'],
    ['POST /v1/quotes/{id}/send', (key, id) => api.request({ method: 'POST', path: `/v1/quotes/${id}/send`, token: key }), 'quotes:write'],
  ];

  describe('scopes and plan module', () => {
    it.each(routes)('%s needs %s (403 insufficient_scope, nothing written)', async (_, call, scope) => {
      const before = await quoteWriteCounts(api);
      const other = scope === 'quotes:read' ? mine.api_keys.writer.key : mine.api_keys.reader.key;
      for (const key of [other, mine.api_keys.contacts.key]) {
        const response = await call(key, myQuote.id);
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: scope } });
      }
      expect(await quoteWriteCounts(api)).toEqual(before);
    });

    it.each(routes)('%s needs the plan module quotes (403 feature_not_available)', async (_, call) => {
      const without = await api.provision(quotesBlueprint({ features: ['public_api', 'bookings'] }));
      const before = await quoteWriteCounts(api);
      const response = await call(without.api_keys.full.key, myQuote.id);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'feature_not_available', details: { feature: 'quotes' } });
      expect(await quoteWriteCounts(api)).toEqual(before);
    });

    it('the reader and writer keys work on their own routes', async () => {
      expect((await api.request({ path: `/v1/quotes/${myQuote.id}`, token: mine.api_keys.reader.key })).status).toBe(200);
      expect((await api.request({ method: 'POST', path: '/v1/quotes', token: mine.api_keys.writer.key, body: {} })).status).toBe(201);
    });
  });

  describe("another account's quote answers exactly like a missing one, and is not changed", () => {
    const theirState = async () => ({ rows: await quoteRows(api, theirs.account_id), emails: (await quoteEmails(api, theirs)).length });

    it.each(routes.filter(([name]) => name.includes('{id}')))('%s', async (_, call) => {
      const before = await theirState();
      for (const id of [theirQuote.id, theirSent.id]) {
        const foreign = await call(token, id);
        const missing = await call(token, newId());
        expect(foreign.status).toBe(404);
        expect(envelope(foreign)).toEqual(envelope(missing));
      }
      expect(await theirState()).toEqual(before);
    });

    it.each(['view', 'sign', 'decline', 'pay'])('POST /admin/…/accounts/{mine}/quotes/{theirs}/lead-actions %s', async (action) => {
      const before = await theirState();
      const foreign = await leadAction(api, mine, theirSent.id, action);
      const missing = await leadAction(api, mine, newId(), action);
      expect(foreign.status).toBe(404);
      expect(envelope(foreign)).toEqual(envelope(missing));
      expect(await theirState()).toEqual(before);
    });

    it('GET /v1/quotes lists only my quotes', async () => {
      const ids = (await api.request({ path: '/v1/quotes', token, query: { limit: '100' } })).body.data.map((quote: any) => quote.id);
      expect(ids).toContain(myQuote.id);
      expect(ids).not.toContain(theirQuote.id);
      expect(ids).not.toContain(theirSent.id);
    });

    it('a public page token names its account: swapping the account part finds nothing', async () => {
      const email = (await quoteEmails(api, theirs))[0];
      const path = new URL(/href="([^"]+)"/.exec(email.html)![1]).pathname;
      const mineAccountPart = Buffer.from(mine.account_id.replace(/-/g, ''), 'hex').toString('base64url');
      const swapped = path.replace(/\/q\/[^.]+\./, `/q/${mineAccountPart}.`);
      expect((await api.request({ path: swapped })).status).toBe(404);
    });
  });

  describe('bad input on every body route: 4xx, never 500, nothing written', () => {
    const BAD_BODIES: [string, { body?: unknown; rawBody?: string; headers?: Record<string, string> }][] = [
      ['invalid JSON', { rawBody: '{"prospect_name":', headers: { 'content-type': 'application/json' } }],
      ['a JSON array', { body: [1, 2] }],
      ['a JSON string', { body: 'quote' }],
      ['JSON null', { rawBody: 'null', headers: { 'content-type': 'application/json' } }],
      ['prototype poisoning', { rawBody: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } }],
      ['text/plain', { rawBody: 'hello', headers: { 'content-type': 'text/plain' } }],
      ['a form body', { rawBody: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
      ['numbers for strings', { body: { prospect_name: 12, prospect_email: 1, valid_until: 20260501, tax_exempt_reason: 7, status: 3 } }],
      ['objects for strings', { body: { prospect_name: { a: 1 }, internal_notes: [], payment_terms: {} } }],
      ['line_items not an array', { body: { line_items: { description: 'A' } } }],
      ['line items of the wrong types', { body: { line_items: ['A', null, { description: 5, quantity: '2', unit_price: '10.00' }] } }],
      ['negative, zero and huge amounts', { body: { line_items: [{ description: 'A', quantity: -1, unit_price: 1e300 }, { description: 'B', quantity: 1e9 }] } }],
      ['a huge string', { body: { prospect_name: 'x'.repeat(100_000) } }],
      ['plan numbers as strings', { body: { payment_deposit_value: '25', payment_installments_count: '3', payment_interval_days: true } }],
      ['null for non-nullable members', { body: { language: null, signature_payment_order: null, line_items: null, payment_plan_type: null } }],
      ['read-only members', { body: { quote_number: '2026-0001', subtotal: 1, tps_amount: 1, tvq_amount: 1, total: 1 } }],
      ['unknown members', { body: { colour: 'red', id: newId() } }],
      ['an impossible date', { body: { valid_until: '2026-02-30' } }],
    ];

    const targets: [string, (options: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) => Promise<TestResponse>][] = [
      ['POST /v1/quotes', (options) => api.request({ method: 'POST', path: '/v1/quotes', token, ...options })],
      ['PATCH /v1/quotes/{id}', (options) => api.request({ method: 'PATCH', path: `/v1/quotes/${myQuote.id}`, token, ...options })],
      [
        'POST /admin/…/lead-actions',
        (options) => api.request({ method: 'POST', path: `/admin/v1/accounts/${mine.account_id}/quotes/${myQuote.id}/lead-actions`, token: TEST_ADMIN_TOKEN, ...options }),
      ],
    ];

    for (const [target, call] of targets) {
      it.each(BAD_BODIES)(`${target}: %s`, async (_, options) => {
        const before = await quoteWriteCounts(api);
        const rows = await quoteRows(api, mine.account_id);
        const response = await call(options);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.body).toMatchObject({ code: expect.any(String), request_id: expect.any(String) });
        expect(await quoteWriteCounts(api)).toEqual(before);
        expect(await quoteRows(api, mine.account_id)).toEqual(rows);
      });
    }

    it('POST /v1/quotes/{id}/send ignores a JSON body but refuses unreadable ones (400 / 415), nothing written', async () => {
      const before = await quoteWriteCounts(api);
      const invalid = await api.request({ method: 'POST', path: `/v1/quotes/${myQuote.id}/send`, token, rawBody: '{', headers: { 'content-type': 'application/json' } });
      expect(invalid.status).toBe(400);
      const text = await api.request({ method: 'POST', path: `/v1/quotes/${myQuote.id}/send`, token, rawBody: 'go', headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      expect(await quoteWriteCounts(api)).toEqual(before);
    });
  });
});
