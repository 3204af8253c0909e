import { FixedClock, newId } from '@leadflow/shared-kernel';
import { createContact, db, expectStatus } from './support/contacts-fixtures';
import {
  archiveQuote,
  createQuote,
  getQuote,
  leadAction,
  NOT_A_REP,
  patchQuote,
  QUOTE_DEFAULTS,
  quoteRows,
  quotesBlueprint,
  quoteWriteCounts,
  REP,
  SENDABLE,
  sendQuote,
} from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are asserted field by field */

/**
 * public-api-v1 › Quote, Endpoints › Quotes (GET, POST, PATCH), operator-api › quote_defaults, Quote
 * taxes, Quote numbers; on real PostgreSQL with a FixedClock at 2026-05-03 10:00 in Montreal.
 */
describe('quotes: create, list, read and PATCH', () => {
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

  describe('POST /v1/quotes', () => {
    it('creates a draft (201) numbered <YYYY>-<NNNN> with the account defaults, totals computed in exact cents', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/quotes', token, body: SENDABLE });
      expect(response.status).toBe(201);
      const quote = response.body.data;
      expect(quote).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        quote_number: expect.stringMatching(/^2026-\d{4}$/),
        status: 'draft',
        language: 'fr',
        valid_until: '2026-05-18',
        payment_terms: QUOTE_DEFAULTS.payment_terms,
        signature_payment_order: 'signature_first',
        tax_profile_id: null,
        tax_exempt_reason: null,
        payment_plan_type: 'full',
        payment_execution_mode: 'manual',
        prospect_email: 'Nadia.Belanger@example.com',
        contact_id: null,
        sent_at: null,
        archived_at: null,
        internal_notes: '',
        line_items: [
          { description: 'Armoires de cuisine', quantity: 1, unit_price: 4200, amount: 4200 },
          { description: 'Pose (heures)', quantity: 2.5, unit_price: 85, amount: 212.5 },
        ],
        // 4412.50 → TPS 220.625 → 220.63; TVQ 440.146875 → 440.15; total 5073.28
        subtotal: 4412.5,
        tps_amount: 220.63,
        tvq_amount: 440.15,
        total: 5073.28,
        created_at: '2026-05-03T14:00:00.000Z',
      });
      const [row] = await db(api).query(`SELECT subtotal_cents, tps_cents, tvq_cents, total_cents FROM quotes.quotes WHERE id = $1`, [quote.id]);
      expect(row).toEqual({ subtotal_cents: '441250', tps_cents: '22063', tvq_cents: '44015', total_cents: '507328' });
      const events = await db(api).query(`SELECT type FROM platform.outbox WHERE account_id = $1 AND payload->>'quote_id' = $2`, [account.account_id, quote.id]);
      expect(events).toEqual([{ type: 'quote_created' }]);
    });

    it('numbers follow the account sequence: 0001, 0002… and another account starts at 0001', async () => {
      const fresh = await api.provision(quotesBlueprint());
      const numbers = [];
      for (let i = 0; i < 3; i += 1) numbers.push((await createQuote(api, fresh.api_keys.full.key, {})).quote_number);
      expect(numbers).toEqual(['2026-0001', '2026-0002', '2026-0003']);
      const other = await api.provision(quotesBlueprint());
      expect((await createQuote(api, other.api_keys.full.key, {})).quote_number).toBe('2026-0001');
    });

    it('concurrent creates never share a number (20 in parallel)', async () => {
      const fresh = await api.provision(quotesBlueprint());
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => api.request({ method: 'POST', path: '/v1/quotes', token: fresh.api_keys.full.key, body: { prospect_name: 'Parallèle' } })),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
      const numbers = responses.map((response) => response.body.data.quote_number).sort();
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `2026-${String(i + 1).padStart(4, '0')}`));
    });

    it('validity counts from today in the account zone: 2026-05-04 01:00 UTC is still May 3 in Montreal', async () => {
      clock.set(new Date('2026-05-04T01:00:00.000Z'));
      try {
        expect((await createQuote(api, token, {})).valid_until).toBe('2026-05-18');
        const tokyo = await api.provision(quotesBlueprint({ timezone: 'Asia/Tokyo', quote_defaults: { ...QUOTE_DEFAULTS, validity_days: 1 } }));
        expect((await createQuote(api, tokyo.api_keys.full.key, {})).valid_until).toBe('2026-05-05');
      } finally {
        clock.set(new Date('2026-05-03T14:00:00.000Z'));
      }
    });

    it('the account defaults apply: signature_payment_order and tax profile from quote_defaults', async () => {
      const gst = await api.provision(quotesBlueprint({ quote_defaults: { validity_days: 30, signature_payment_order: 'payment_first', tax_profile: 'gst', payment_terms: null } }));
      const quote = await createQuote(api, gst.api_keys.full.key, { line_items: [{ description: 'A', unit_price: 100 }] });
      expect(quote).toMatchObject({ valid_until: '2026-06-02', payment_terms: null, signature_payment_order: 'payment_first', tax_profile_id: null, tps_amount: 5, tvq_amount: 0, total: 105 });
    });

    it('given values win: language, valid_until (null: no date), payment_terms, tax_profile_id, signature_payment_order', async () => {
      const quote = await createQuote(api, token, {
        language: 'en',
        valid_until: null,
        payment_terms: 'Net 30',
        tax_profile_id: 'gst',
        signature_payment_order: 'signature_only',
        line_items: [{ description: 'A', unit_price: 100 }],
      });
      expect(quote).toMatchObject({ language: 'en', valid_until: null, payment_terms: 'Net 30', tax_profile_id: 'gst', signature_payment_order: 'signature_only', total: 105 });
    });

    it('prospect fields omitted are read from the contact (given ones win)', async () => {
      const contact = await createContact(api, token, { email: 'Julie.Roy@example.com', first_name: 'Julie', last_name: 'Roy', phone: '438 555 0199', company: 'Condos Roy' });
      const quote = await createQuote(api, token, { contact_id: contact.id, prospect_company: 'Autre inc.' });
      expect(quote).toMatchObject({
        contact_id: contact.id,
        prospect_name: 'Julie Roy',
        prospect_email: 'julie.roy@example.com',
        prospect_phone: '+14385550199',
        prospect_company: 'Autre inc.',
      });
    });

    it('tax_exempt_reason: both taxes 0', async () => {
      expect(await createQuote(api, token, { ...SENDABLE, tax_exempt_reason: 'Bande de Kahnawake' })).toMatchObject({ tps_amount: 0, tvq_amount: 0, total: 4412.5 });
    });

    it.each([
      ['quote_number', { quote_number: '2026-9999' }, 'read_only'],
      ['total', { total: 1 }, 'read_only'],
      ['contact_id', { contact_id: 'not-a-uuid' }, 'invalid_format'],
      ['signature_payment_order', { signature_payment_order: 'whenever' }, 'invalid_value'],
      ['language', { language: 'de' }, 'invalid_value'],
      ['valid_until', { valid_until: '2026-13-01' }, 'invalid_format'],
      ['tax_exempt_reason', { tax_exempt_reason: '' }, 'too_short'],
      ['tax_exempt_reason', { tax_exempt_reason: 'x'.repeat(201) }, 'too_long'],
      ['line_items[0].quantity', { line_items: [{ description: 'A', quantity: 1.00001, unit_price: 1 }] }, 'invalid_value'],
      ['line_items[0].unit_price', { line_items: [{ description: 'A', unit_price: 10.00001 }] }, 'invalid_value'],
      ['line_items[0].description', { line_items: [{ quantity: 1 }] }, 'required'],
      ['line_items[0].colour', { line_items: [{ description: 'A', colour: 'red' }] }, 'unknown_field'],
      ['quote_colour', { quote_colour: 'red' }, 'unknown_field'],
      ['sales_rep_id', { sales_rep_id: 'x' }, 'invalid_format'],
    ])('400 validation_error on %s (%j): reason %s, nothing written', async (field, body, reason) => {
      const before = await quoteWriteCounts(api);
      const response = await api.request({ method: 'POST', path: '/v1/quotes', token, body });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', type: 'invalid_request_error' });
      expect(response.body.details).toContainEqual(expect.objectContaining({ field, reason }));
      expect(await quoteWriteCounts(api)).toEqual(before);
    });

    it('a contact of another account gives 400 validation_error reason not_found_in_tenant, nothing written', async () => {
      const other = await api.provision(quotesBlueprint());
      const theirs = await createContact(api, other.api_keys.full.key, { email: 'theirs@example.com' });
      const before = await quoteWriteCounts(api);
      for (const contactId of [theirs.id, newId()]) {
        const response = await api.request({ method: 'POST', path: '/v1/quotes', token, body: { contact_id: contactId } });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'contact_id', reason: 'not_found_in_tenant' }] });
      }
      expect(await quoteWriteCounts(api)).toEqual(before);
    });

    it('sales_rep_id: a sales rep of the account; another account\'s member is not_found_in_tenant; a member who is not a rep is invalid_value', async () => {
      const other = await api.provision(quotesBlueprint());
      const mine = await createQuote(api, token, { sales_rep_id: account.team_members[REP] });
      expect(mine.sales_rep_id).toBe(account.team_members[REP]);
      const foreign = await api.request({ method: 'POST', path: '/v1/quotes', token, body: { sales_rep_id: other.team_members[REP] } });
      expect(foreign.body).toMatchObject({ code: 'validation_error', details: [{ field: 'sales_rep_id', reason: 'not_found_in_tenant' }] });
      const notRep = await api.request({ method: 'POST', path: '/v1/quotes', token, body: { sales_rep_id: account.team_members[NOT_A_REP] } });
      expect(notRep.body).toMatchObject({ code: 'validation_error', details: [{ field: 'sales_rep_id', reason: 'invalid_value' }] });
    });

    it('Idempotency-Key: same key and payload replays the original; another payload gives 409 idempotency_conflict; a rejection leaves the key usable', async () => {
      const headers = { 'Idempotency-Key': `quote-${newId()}` };
      const refused = await api.request({ method: 'POST', path: '/v1/quotes', token, headers, body: { quote_number: 'x' } });
      expect(refused.status).toBe(400);
      const first = await api.request({ method: 'POST', path: '/v1/quotes', token, headers, body: { prospect_name: 'Idem' } });
      expect(first.status).toBe(201);
      const before = await quoteWriteCounts(api);
      const replay = await api.request({ method: 'POST', path: '/v1/quotes', token, headers, body: { prospect_name: 'Idem' } });
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      const conflict = await api.request({ method: 'POST', path: '/v1/quotes', token, headers, body: { prospect_name: 'Autre' } });
      expect(conflict.status).toBe(409);
      expect(conflict.body.code).toBe('idempotency_conflict');
      expect(await quoteWriteCounts(api)).toEqual(before);
    });
  });

  describe('GET /v1/quotes and /v1/quotes/{id}', () => {
    let lister: ProvisionedAccount;
    let key: string;
    const made: Record<string, any>[] = [];

    beforeAll(async () => {
      lister = await api.provision(quotesBlueprint());
      key = lister.api_keys.full.key;
      for (let i = 0; i < 4; i += 1) {
        clock.advance(1000);
        made.push(await createQuote(api, key, SENDABLE));
      }
      expectStatus(await sendQuote(api, key, made[1].id), 200);
      expectStatus(await patchQuote(api, key, made[2].id, { status: 'cancelled' }), 200);
      await archiveQuote(api, lister, made[3].id);
    });

    it('lists newest first with pagination; archived quotes are excluded', async () => {
      const response = await api.request({ path: '/v1/quotes', token: key });
      expect(response.status).toBe(200);
      expect(response.body.data.map((quote: any) => quote.id)).toEqual([made[2].id, made[1].id, made[0].id]);
      expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 3 });
      const first = await api.request({ path: '/v1/quotes', token: key, query: { limit: '2' } });
      expect(first.body.pagination).toMatchObject({ has_more: true, total_count: 3 });
      const second = await api.request({ path: '/v1/quotes', token: key, query: { limit: '2', cursor: first.body.pagination.next_cursor } });
      expect(second.body.data.map((quote: any) => quote.id)).toEqual([made[0].id]);
    });

    it.each([
      ['draft', 0],
      ['sent', 1],
      ['cancelled', 2],
    ])('status=%s filters exactly', async (status, index) => {
      const response = await api.request({ path: '/v1/quotes', token: key, query: { status } });
      expect(response.body.data.map((quote: any) => quote.id)).toEqual([made[index].id]);
    });

    it('status=signed after the lead signs', async () => {
      expectStatus(await leadAction(api, lister, made[1].id, 'sign'), 200);
      const response = await api.request({ path: '/v1/quotes', token: key, query: { status: 'signed' } });
      expect(response.body.data.map((quote: any) => quote.id)).toEqual([made[1].id]);
    });

    it('400 on an unknown status, limit or cursor', async () => {
      expect((await api.request({ path: '/v1/quotes', token: key, query: { status: 'won' } })).body).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'status', reason: 'invalid_value' }],
      });
      expect((await api.request({ path: '/v1/quotes', token: key, query: { limit: '0' } })).body).toMatchObject({ code: 'invalid_request', details: { field: 'limit' } });
      expect((await api.request({ path: '/v1/quotes', token: key, query: { cursor: 'nope' } })).body).toMatchObject({ code: 'invalid_request', details: { field: 'cursor' } });
    });

    it('GET /v1/quotes/{id}: the quote; archived, unknown or not a UUID: 404 resource_not_found', async () => {
      expect((await getQuote(api, key, made[0].id)).id).toBe(made[0].id);
      for (const id of [made[3].id, newId(), 'not-a-uuid']) {
        const response = await api.request({ path: `/v1/quotes/${id}`, token: key });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'resource_not_found', details: { resource: 'quote' } });
      }
    });
  });

  describe('PATCH /v1/quotes/{id}', () => {
    let draft: Record<string, any>;
    beforeEach(async () => {
      draft = await createQuote(api, token, SENDABLE);
    });

    const patch = (body: unknown, id = draft.id) => patchQuote(api, token, id, body);

    it('updates fields (200) and writes quote_updated with the changes', async () => {
      const response = await patch({ prospect_name: 'Nadia B.', internal_notes: 'Rappeler lundi', valid_until: '2026-07-01', payment_terms: null });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ prospect_name: 'Nadia B.', internal_notes: 'Rappeler lundi', valid_until: '2026-07-01', payment_terms: null, quote_number: draft.quote_number });
      const [event] = await db(api).query(`SELECT payload FROM platform.outbox WHERE type = 'quote_updated' AND payload->>'quote_id' = $1`, [draft.id]);
      expect(event.payload.changes).toMatchObject({ prospect_name: { previous: 'Nadia Bélanger', current: 'Nadia B.' } });
    });

    it('rule 1: an empty body gives 400 no_fields; amounts and line items are read_only', async () => {
      expect((await patch({})).body).toMatchObject({ code: 'no_fields' });
      for (const field of ['subtotal', 'tps_amount', 'tvq_amount', 'total', 'line_items', 'quote_number']) {
        const response = await patch({ [field]: 1 });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field, reason: 'read_only' }] });
      }
    });

    it('rule 2: status alone (exclusive_field), declined or cancelled only (invalid_value)', async () => {
      const mixed = await patch({ status: 'cancelled', internal_notes: 'x' });
      expect(mixed.status).toBe(400);
      expect(mixed.body).toMatchObject({ code: 'validation_error' });
      expect(mixed.body.details).toContainEqual(expect.objectContaining({ field: 'status', reason: 'exclusive_field' }));
      expect((await patch({ status: 'signed' })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'status', reason: 'invalid_value' }] });
      expect((await patch({ status: null })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'status', reason: 'invalid_type' }] });
      expect((await getQuote(api, token, draft.id)).status).toBe('draft');
    });

    it('rule 2: declined and cancelled close the quote; a signed, paid or closed quote gives 409 status_locked', async () => {
      expect((await patch({ status: 'declined' })).body.data).toMatchObject({ status: 'declined', declined_at: clock.now().toISOString() });
      expect((await patch({ status: 'cancelled' })).body).toMatchObject({ code: 'status_locked', details: { status: 'declined' } });
      const signed = await createQuote(api, token, SENDABLE);
      expectStatus(await sendQuote(api, token, signed.id), 200);
      expectStatus(await leadAction(api, account, signed.id, 'sign'), 200);
      const before = await quoteRows(api, account.account_id);
      const locked = await patch({ status: 'cancelled' }, signed.id);
      expect(locked.status).toBe(409);
      expect(locked.body).toMatchObject({ code: 'status_locked', type: 'conflict_error', details: { status: 'signed' } });
      expect(await quoteRows(api, account.account_id)).toEqual(before);
      expectStatus(await leadAction(api, account, signed.id, 'pay'), 200);
      expect((await patch({ status: 'declined' }, signed.id)).body).toMatchObject({ code: 'status_locked', details: { status: 'paid' } });
      const cancelled = await createQuote(api, token, SENDABLE);
      expectStatus(await patch({ status: 'cancelled' }, cancelled.id), 200);
      expect((await patch({ status: 'declined' }, cancelled.id)).body).toMatchObject({ code: 'status_locked', details: { status: 'cancelled' } });
    });

    it('rule 3: payment plan fields must be consistent (400 validation_error); a consistent plan is saved', async () => {
      expect((await patch({ payment_plan_type: 'deposit' })).body).toMatchObject({
        code: 'validation_error',
        details: [
          { field: 'payment_deposit_type', reason: 'required' },
          { field: 'payment_deposit_value', reason: 'required' },
        ],
      });
      expect((await patch({ payment_deposit_value: 25 })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'payment_deposit_value', reason: 'invalid_value' }] });
      expect((await patch({ payment_plan_type: 'weekly' })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'payment_plan_type', reason: 'invalid_value' }] });
      expect((await patch({ payment_deposit_type: 'half' })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'payment_deposit_type', reason: 'invalid_value' }] });
      expect((await patch({ payment_installments_count: 1.5 })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'payment_installments_count', reason: 'invalid_type' }] });
      const saved = await patch({ payment_plan_type: 'deposit', payment_deposit_type: 'percentage', payment_deposit_value: 25, payment_execution_mode: 'automatic' });
      expect(saved.body.data).toMatchObject({ payment_plan_type: 'deposit', payment_deposit_type: 'percentage', payment_deposit_value: 25, payment_execution_mode: 'automatic' });
      const installments = await patch({ payment_plan_type: 'installments', payment_installments_count: 4, payment_interval_days: 30 });
      expect(installments.body.data).toMatchObject({ payment_plan_type: 'installments', payment_deposit_type: null, payment_deposit_value: null, payment_installments_count: 4, payment_interval_days: 30 });
    });

    it('rule 3: once a payment is collected the plan is locked (409 payment_plan_locked); other fields still change', async () => {
      expectStatus(await patch({ payment_plan_type: 'deposit', payment_deposit_type: 'fixed', payment_deposit_value: 500 }), 200);
      expectStatus(await sendQuote(api, token, draft.id), 200);
      expectStatus(await leadAction(api, account, draft.id, 'sign'), 200);
      const paid = expectStatus(await leadAction(api, account, draft.id, 'pay'), 200).body.data;
      expect(paid).toMatchObject({ status: 'signed', amount_paid: 500 });
      const locked = await patch({ payment_plan_type: 'full' });
      expect(locked.status).toBe(409);
      expect(locked.body).toMatchObject({ code: 'payment_plan_locked', details: { conflicting_fields: ['payment_plan_type'] } });
      expect((await patch({ payment_execution_mode: 'automatic' })).body.code).toBe('payment_plan_locked');
      expectStatus(await patch({ internal_notes: 'Acompte reçu' }), 200);
    });

    it('rule 4: signature_payment_order editable while draft; after sending 409 signature_payment_order_locked', async () => {
      expect((await patch({ signature_payment_order: 'payment_first' })).body.data.signature_payment_order).toBe('payment_first');
      expect((await patch({ signature_payment_order: 'sooner' })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'signature_payment_order', reason: 'invalid_value' }] });
      expectStatus(await sendQuote(api, token, draft.id), 200);
      const locked = await patch({ signature_payment_order: 'signature_first' });
      expect(locked.status).toBe(409);
      expect(locked.body).toMatchObject({ code: 'signature_payment_order_locked', details: { field: 'signature_payment_order', status: 'sent' } });
    });

    it('locked field means locked: signature_payment_order named on a draft with its current value is 200 and writes nothing', async () => {
      const before = await quoteWriteCounts(api);
      const rows = await quoteRows(api, account.account_id);
      const same = await patch({ signature_payment_order: draft.signature_payment_order });
      expect(same.status).toBe(200);
      expect(same.body.data).toMatchObject({ signature_payment_order: 'signature_first', updated_at: draft.updated_at });
      expect(await quoteWriteCounts(api)).toEqual(before);
      expect(await quoteRows(api, account.account_id)).toEqual(rows);
    });

    /** Moves the draft to `status` (sent, viewed, signed, paid, declined, cancelled) through the public routes and the lead's actions. */
    async function moveTo(status: string): Promise<void> {
      if (status === 'cancelled') {
        expectStatus(await patch({ status: 'cancelled' }), 200);
        return;
      }
      expectStatus(await sendQuote(api, token, draft.id), 200);
      const actions: Record<string, string[]> = { sent: [], viewed: ['view'], signed: ['sign'], paid: ['sign', 'pay'], declined: ['decline'] };
      for (const action of actions[status]) expectStatus(await leadAction(api, account, draft.id, action), 200);
      expect((await getQuote(api, token, draft.id)).status).toBe(status);
    }

    it.each(['sent', 'viewed', 'signed', 'paid', 'declined', 'cancelled'])(
      'locked field means locked: signature_payment_order named on a %s quote gives 409 signature_payment_order_locked even with its current value, nothing written',
      async (status) => {
        await moveTo(status);
        const current = (await getQuote(api, token, draft.id)).signature_payment_order;
        const before = await quoteWriteCounts(api);
        const rows = await quoteRows(api, account.account_id);
        for (const body of [{ signature_payment_order: current }, { signature_payment_order: current, internal_notes: 'Rappeler lundi' }, { signature_payment_order: 'payment_first' }]) {
          const response = await patch(body);
          expect(response.status).toBe(409);
          expect(response.body).toMatchObject({
            code: 'signature_payment_order_locked',
            type: 'conflict_error',
            details: { field: 'signature_payment_order', status },
          });
        }
        expect(await quoteWriteCounts(api)).toEqual(before);
        expect(await quoteRows(api, account.account_id)).toEqual(rows);
        expect((await getQuote(api, token, draft.id)).internal_notes).toBe('');
      },
    );

    it.each([
      ['payment_plan_type', 'deposit'],
      ['payment_deposit_type', 'fixed'],
      ['payment_deposit_value', 500],
      ['payment_installments_count', null],
      ['payment_interval_days', null],
      ['payment_execution_mode', 'manual'],
    ])(
      'locked field means locked: %s with its current value (%j) once a payment is collected gives 409 payment_plan_locked, nothing written',
      async (field, current) => {
        expectStatus(await patch({ payment_plan_type: 'deposit', payment_deposit_type: 'fixed', payment_deposit_value: 500 }), 200);
        expectStatus(await sendQuote(api, token, draft.id), 200);
        expectStatus(await leadAction(api, account, draft.id, 'sign'), 200);
        const paid = expectStatus(await leadAction(api, account, draft.id, 'pay'), 200).body.data;
        expect(paid).toMatchObject({ amount_paid: 500, [field]: current });
        const before = await quoteWriteCounts(api);
        const rows = await quoteRows(api, account.account_id);
        for (const body of [{ [field]: current }, { [field]: current, internal_notes: 'Acompte reçu' }]) {
          const response = await patch(body);
          expect(response.status).toBe(409);
          expect(response.body).toMatchObject({ code: 'payment_plan_locked', type: 'conflict_error', details: { conflicting_fields: [field] } });
        }
        expect(await quoteWriteCounts(api)).toEqual(before);
        expect(await quoteRows(api, account.account_id)).toEqual(rows);
      },
    );

    it('rule 5: tax_exempt_reason 1 to 200 characters recomputes the totals; null taxes again', async () => {
      const exempt = await patch({ tax_exempt_reason: 'Organisme de bienfaisance' });
      expect(exempt.body.data).toMatchObject({ tax_exempt_reason: 'Organisme de bienfaisance', subtotal: 4412.5, tps_amount: 0, tvq_amount: 0, total: 4412.5 });
      expect((await patch({ tax_exempt_reason: '' })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'tax_exempt_reason', reason: 'too_short' }] });
      expect((await patch({ tax_exempt_reason: 'x'.repeat(201) })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'tax_exempt_reason', reason: 'too_long' }] });
      expect((await patch({ tax_exempt_reason: 'x'.repeat(200) })).status).toBe(200);
      expect((await patch({ tax_exempt_reason: null })).body.data).toMatchObject({ tax_exempt_reason: null, tps_amount: 220.63, tvq_amount: 440.15, total: 5073.28 });
    });

    it('tax_profile_id recomputes the totals; null means the account default', async () => {
      expect((await patch({ tax_profile_id: 'gst' })).body.data).toMatchObject({ tax_profile_id: 'gst', tps_amount: 220.63, tvq_amount: 0, total: 4633.13 });
      expect((await patch({ tax_profile_id: null })).body.data).toMatchObject({ tax_profile_id: null, total: 5073.28 });
      expect((await patch({ tax_profile_id: 'hst' })).body).toMatchObject({ code: 'validation_error', details: [{ field: 'tax_profile_id', reason: 'invalid_value' }] });
    });

    it('rule 6: an archived quote gives 404 resource_not_found, nothing written', async () => {
      await archiveQuote(api, account, draft.id);
      const before = await quoteRows(api, account.account_id);
      const response = await patch({ internal_notes: 'x' });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'resource_not_found', type: 'not_found_error' });
      expect(await quoteRows(api, account.account_id)).toEqual(before);
    });

    it('refused PATCHes write nothing', async () => {
      const before = await quoteWriteCounts(api);
      const rows = await quoteRows(api, account.account_id);
      for (const body of [{}, { status: 'x' }, { quote_number: 'y' }, { payment_plan_type: 'deposit' }, { sales_rep_id: newId() }, { valid_until: 'demain' }]) {
        const response = await patch(body);
        expect(response.status).toBe(400);
      }
      expect(await quoteWriteCounts(api)).toEqual(before);
      expect(await quoteRows(api, account.account_id)).toEqual(rows);
    });
  });
});
