import { CommandBus } from '@nestjs/cqrs';
import { ExpireQuotesCommand } from '@leadflow/quotes-contracts';
import { FixedClock, newId } from '@leadflow/shared-kernel';
import { db, expectStatus } from './support/contacts-fixtures';
import {
  archiveQuote,
  createQuote,
  getQuote,
  leadAction,
  pagePath,
  patchQuote,
  quoteEmails,
  quotesBlueprint,
  quoteWriteCounts,
  SENDABLE,
  sendQuote,
} from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * The lead's side (operator-api › lead-actions, PUBLIC_BASE_URL): `POST /admin/v1/accounts/{id}/quotes/
 * {quote_id}/lead-actions`, the public page `GET /q/{token}` with its Sign and Decline form posts, and
 * the daily expiry (States › Quote "validity date passes") run with the FixedClock.
 */
describe('quotes: lead actions, public page and expiry', () => {
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

  /** A sent quote and the path of its emailed page link. */
  async function sent(body: Record<string, unknown> = {}): Promise<{ quote: Record<string, any>; path: string }> {
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_phone: null, prospect_email: `lead-${newId()}@example.com`, ...body });
    expectStatus(await sendQuote(api, token, quote.id), 200);
    const email = (await quoteEmails(api, account)).find((row) => row.to === quote.prospect_email.toLowerCase());
    return { quote, path: pagePath(email!.html) };
  }

  describe('POST /admin/v1/accounts/{account_id}/quotes/{quote_id}/lead-actions', () => {
    it('view → viewed, sign → signed, pay → paid, each 200 with the quote (data)', async () => {
      const { quote } = await sent();
      const viewed = await leadAction(api, account, quote.id, 'view');
      expect(viewed.status).toBe(200);
      expect(viewed.body.data).toMatchObject({ id: quote.id, status: 'viewed', viewed_at: '2026-05-03T14:00:00.000Z' });
      expect((await leadAction(api, account, quote.id, 'sign')).body.data).toMatchObject({ status: 'signed', signed_at: expect.any(String) });
      const paid = (await leadAction(api, account, quote.id, 'pay')).body.data;
      expect(paid).toMatchObject({ status: 'paid', amount_paid: 5073.28, paid_at: expect.any(String) });
      const [payment] = await db(api).query(`SELECT amount_cents FROM quotes.quote_payments WHERE account_id = $1 AND quote_id = $2`, [account.account_id, quote.id]);
      expect(payment.amount_cents).toBe('507328');
      const types = await db(api).query(`SELECT type, actor FROM platform.outbox WHERE payload->>'quote_id' = $1 ORDER BY sequence`, [quote.id]);
      expect(types.map((row: any) => row.type)).toEqual(['quote_created', 'quote_sent', 'quote_viewed', 'quote_signed', 'payment_received', 'quote_paid']);
      expect(types[2].actor).toEqual({ type: null, id: null, name: 'lead', via: null });
    });

    it('decline → declined; then sign gives 409 status_locked', async () => {
      const { quote } = await sent();
      expect((await leadAction(api, account, quote.id, 'decline')).body.data.status).toBe('declined');
      const refused = await leadAction(api, account, quote.id, 'sign');
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'status_locked', details: { status: 'declined', action: 'sign' } });
    });

    it('view again, or view a signed quote: 200, no change, nothing written', async () => {
      const { quote } = await sent();
      await leadAction(api, account, quote.id, 'view');
      await leadAction(api, account, quote.id, 'sign');
      const before = await quoteWriteCounts(api);
      expect((await leadAction(api, account, quote.id, 'view')).body.data.status).toBe('signed');
      expect(await quoteWriteCounts(api)).toEqual(before);
    });

    it('refusals: sign twice 409 already_signed; a cancelled quote 409 quote_cancelled; a draft 409 status_locked; pay before signing 409 status_locked', async () => {
      const { quote } = await sent();
      expect((await leadAction(api, account, quote.id, 'pay')).body).toMatchObject({ code: 'status_locked', details: { status: 'sent', action: 'pay', reason: 'signature_required' } });
      await leadAction(api, account, quote.id, 'sign');
      expect((await leadAction(api, account, quote.id, 'sign')).body).toMatchObject({ code: 'already_signed', details: { status: 'signed' } });
      expect((await leadAction(api, account, quote.id, 'decline')).body.code).toBe('already_signed');
      const cancelled = await sent();
      expectStatus(await patchQuote(api, token, cancelled.quote.id, { status: 'cancelled' }), 200);
      expect((await leadAction(api, account, cancelled.quote.id, 'view')).body.code).toBe('quote_cancelled');
      const draft = await createQuote(api, token, SENDABLE);
      expect((await leadAction(api, account, draft.id, 'view')).body).toMatchObject({ code: 'status_locked', details: { status: 'draft', action: 'view', reason: 'not_sent' } });
    });

    it('a deposit plan: pay records the deposit then the balance', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_phone: null, prospect_email: 'acompte@example.com' });
      expectStatus(await patchQuote(api, token, quote.id, { payment_plan_type: 'deposit', payment_deposit_type: 'percentage', payment_deposit_value: 25 }), 200);
      expectStatus(await sendQuote(api, token, quote.id), 200);
      await leadAction(api, account, quote.id, 'sign');
      expect((await leadAction(api, account, quote.id, 'pay')).body.data).toMatchObject({ status: 'signed', amount_paid: 1268.32 });
      expect((await leadAction(api, account, quote.id, 'pay')).body.data).toMatchObject({ status: 'paid', amount_paid: 5073.28 });
    });

    it('400 validation_error for an unknown or missing action; 404 for an unknown, archived or other account\'s quote', async () => {
      const { quote } = await sent();
      const before = await quoteWriteCounts(api);
      expect((await api.admin('POST', `/accounts/${account.account_id}/quotes/${quote.id}/lead-actions`, { action: 'buy' })).body).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'action', reason: 'invalid_value' }],
      });
      expect((await api.admin('POST', `/accounts/${account.account_id}/quotes/${quote.id}/lead-actions`, {})).body).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'action', reason: 'required' }],
      });
      expect((await api.admin('POST', `/accounts/${account.account_id}/quotes/${quote.id}/lead-actions`, { action: 'sign', extra: 1 })).body.details).toContainEqual(
        expect.objectContaining({ field: 'extra', reason: 'unknown_field' }),
      );
      expect(await quoteWriteCounts(api)).toEqual(before);
      const other = await api.provision(quotesBlueprint());
      const archived = await sent();
      await archiveQuote(api, account, archived.quote.id);
      for (const [accountId, quoteId] of [
        [account.account_id, newId()],
        [account.account_id, 'x'],
        [account.account_id, archived.quote.id],
        [other.account_id, quote.id],
        [newId(), quote.id],
      ]) {
        const response = await api.admin('POST', `/accounts/${accountId}/quotes/${quoteId}/lead-actions`, { action: 'sign' });
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'resource_not_found' });
      }
      expect((await api.admin('POST', `/accounts/nope/quotes/${quote.id}/lead-actions`, { action: 'sign' })).status).toBe(404);
      expect((await getQuote(api, token, quote.id)).status).toBe('sent');
    });
  });

  describe('GET /q/{token} and the Sign / Decline buttons', () => {
    it('renders the quote in French (line items, subtotal, TPS, TVQ, total in CAD) and marks it viewed', async () => {
      const { quote, path } = await sent({ prospect_name: 'Nadia <b>Bélanger</b>', prospect_address: '12, rue des Érables\nLaval QC', payment_terms: '50 % à la signature' });
      const response = await api.request({ path });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toContain("default-src 'none'");
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      const html: string = response.body;
      expect(html).toContain('<html lang="fr">');
      expect(html).toContain(`Soumission n° ${quote.quote_number}`);
      expect(html).toContain('Armoires de cuisine');
      expect(html).toContain('2,5');
      expect(html).toContain('4 412,50 $'.replace(/ /g, '\u00a0'));
      expect(html).toContain('TPS (5 %)');
      expect(html).toContain('220,63\u00a0$');
      expect(html).toContain('TVQ (9,975 %)');
      expect(html).toContain('440,15\u00a0$');
      expect(html).toContain('5\u00a0073,28\u00a0$');
      expect(html).toContain('Nadia &lt;b&gt;Bélanger&lt;/b&gt;');
      expect(html).not.toContain('<b>Bélanger</b>');
      expect(html).toContain(`action="${path}/sign"`);
      expect(html).toContain(`action="${path}/decline"`);
      expect((await getQuote(api, token, quote.id)).status).toBe('viewed');
    });

    it('renders an English quote in English with amounts formatted for en-CA', async () => {
      const { path } = await sent({ language: 'en' });
      const html: string = (await api.request({ path })).body;
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('Quote no. ');
      expect(html).toContain('GST (5%)');
      expect(html).toContain('QST (9.975%)');
      expect(html).toContain('$5,073.28');
      expect(html).toContain('Sign the quote');
    });

    it('Sign (a form post) signs the quote and answers 303 to the page itself (post/redirect/get); the page then shows it signed without buttons', async () => {
      const { quote, path } = await sent();
      const response = await api.request({
        method: 'POST',
        path: `${path}/sign`,
        rawBody: 'confirm=sign',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe(path);
      expect(response.raw.body).toBe('');
      expect((await getQuote(api, token, quote.id)).status).toBe('signed');
      const page: string = (await api.request({ path })).body;
      expect(page).toContain('Cette soumission a été signée.');
      expect(page).not.toContain('<form');
      const again = await api.request({ method: 'POST', path: `${path}/decline`, rawBody: 'confirm=decline', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(again.status).toBe(409);
      expect(again.body).toContain('Cette soumission a été signée.');
      expect((await getQuote(api, token, quote.id)).status).toBe('signed');
    });

    it('Decline (a form post) declines the quote and answers 303 to the page, which then shows it declined', async () => {
      const { quote, path } = await sent({ language: 'en' });
      const response = await api.request({ method: 'POST', path: `${path}/decline`, rawBody: 'confirm=decline', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe(path);
      expect((await getQuote(api, token, quote.id)).status).toBe('declined');
      expect((await api.request({ path })).body).toContain('You declined this quote.');
    });

    it('an unknown, malformed or archived token answers the 404 page and changes nothing', async () => {
      const { quote, path } = await sent();
      const forged = `${path.slice(0, -4)}AAAA`;
      await archiveQuote(api, account, (await sent()).quote.id);
      for (const target of [forged, '/q/nope', '/q/']) {
        const response = await api.request({ path: target });
        expect(response.status).toBe(404);
      }
      expect((await api.request({ method: 'POST', path: `${forged}/sign`, rawBody: 'confirm=sign', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(404);
      expect((await getQuote(api, token, quote.id)).status).toBe('sent');
    });

    it('a cancelled quote\'s page says so, without buttons', async () => {
      const { quote, path } = await sent();
      expectStatus(await patchQuote(api, token, quote.id, { status: 'cancelled' }), 200);
      const response = await api.request({ path });
      expect(response.status).toBe(200);
      expect(response.body).toContain('Cette soumission a été annulée');
      expect(response.body).not.toContain('<form');
    });

    it.each([
      ['no body', {}],
      ['an empty form', { rawBody: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
      ['the other action', { rawBody: 'confirm=decline', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
      ['a form without confirm', { rawBody: 'foo=bar&confirm', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
      ['JSON', { body: { confirm: 'sign' } }],
      ['invalid JSON', { rawBody: '{"confirm":', headers: { 'content-type': 'application/json' } }],
      ['text/plain', { rawBody: 'confirm=sign', headers: { 'content-type': 'text/plain' } }],
      ['a malformed Content-Type', { rawBody: 'confirm=sign', headers: { 'content-type': 'garbage' } }],
    ])('POST /q/{token}/sign with %s: 400 page, never 500, nothing written', async (_label, options) => {
      const { quote, path } = await sent();
      await api.request({ path });
      const before = await quoteWriteCounts(api);
      const response = await api.request({ method: 'POST', path: `${path}/sign`, ...(options as Record<string, unknown>) });
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(await quoteWriteCounts(api)).toEqual(before);
      expect((await getQuote(api, token, quote.id)).status).toBe('viewed');
    });

    it('form bodies are accepted on the page buttons only: a form post to the API is refused with 415, nothing written', async () => {
      const before = await quoteWriteCounts(api);
      const response = await api.request({ method: 'POST', path: '/v1/quotes', token, rawBody: 'prospect_name=X', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(response.status).toBe(415);
      expect(response.body.code).toBe('unsupported_media_type');
      expect(await quoteWriteCounts(api)).toEqual(before);
    });
  });

  describe('expiry (ExpireQuotesCommand, run daily by the worker)', () => {
    it('moves draft, sent and viewed quotes past valid_until (account-local date) to expired, with quote_expired; the page then shows it expired', async () => {
      const draft = await createQuote(api, token, { ...SENDABLE, valid_until: '2026-05-10' });
      const open = await sent({ valid_until: '2026-05-10' });
      const later = await createQuote(api, token, { ...SENDABLE, valid_until: '2026-05-11' });
      const signed = await sent({ valid_until: '2026-05-10' });
      await leadAction(api, account, signed.quote.id, 'sign');
      const expire = () => api.app.get(CommandBus).execute(new ExpireQuotesCommand());
      try {
        clock.set(new Date('2026-05-11T03:59:00.000Z')); // 23:59 on May 10 in Montreal
        expect((await expire()).expired).toBe(0);
        clock.set(new Date('2026-05-11T04:01:00.000Z')); // 00:01 on May 11 in Montreal
        expect((await expire()).expired).toBe(2);
        expect((await expire()).expired).toBe(0);
        const statuses = await Promise.all([draft, open.quote, later, signed.quote].map(async (quote) => (await getQuote(api, token, quote.id)).status));
        expect(statuses).toEqual(['expired', 'expired', 'draft', 'signed']);
        expect((await getQuote(api, token, draft.id)).expired_at).toBe('2026-05-11T04:01:00.000Z');
        const events = await db(api).query(`SELECT payload->>'quote_id' AS quote_id FROM platform.outbox WHERE type = 'quote_expired' AND account_id = $1`, [account.account_id]);
        expect(events.map((row: any) => row.quote_id).sort()).toEqual([draft.id, open.quote.id].sort());
        const page = await api.request({ path: open.path });
        expect(page.body).toContain('Cette soumission est expirée.');
        expect(page.body).not.toContain('<form');
        expect((await leadAction(api, account, open.quote.id, 'sign')).body.code).toBe('status_locked');
      } finally {
        clock.set(new Date('2026-05-03T14:00:00.000Z'));
      }
    });
  });
});
