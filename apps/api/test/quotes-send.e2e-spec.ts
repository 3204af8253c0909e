import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { createHash } from 'node:crypto';
import { ExpireQuotesCommand } from '@leadflow/quotes-contracts';
import { FixedClock, newId } from '@leadflow/shared-kernel';
import { createContact, db, expectStatus } from './support/contacts-fixtures';
import {
  archiveQuote,
  createQuote,
  INACTIVE_REP,
  leadAction,
  pageLink,
  patchQuote,
  quoteEmails,
  quotesBlueprint,
  quoteWriteCounts,
  REP,
  SENDABLE,
  sendQuote,
  unsubscribe,
} from './support/quotes-fixtures';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';


const BASE = 'https://devis.tremblay.test';

/**
 * POST /v1/quotes/{id}/send (public-api-v1 › Endpoints › Quotes, States › Quote draft → sent): the
 * contact linked or created, the email queued (messaging's QueueEmailCommand) with the public page
 * link, every rejection the data can provoke, and the concurrency of two sends.
 */
describe('POST /v1/quotes/{id}/send', () => {
  const clock = new FixedClock(new Date('2026-05-03T14:00:00.000Z'));
  let api: TestApi;
  let account: ProvisionedAccount;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start({ PUBLIC_BASE_URL: BASE }, clock);
    account = await api.provision(quotesBlueprint());
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());

  const contactsOf = (email: string) => db(api).query(`SELECT id, email, source FROM contacts.contacts WHERE account_id = $1 AND email = $2`, [account.account_id, email]);

  /** A refused send: status, code, details, and nothing written anywhere. */
  async function refused(quoteId: string, status: number, code: string, details?: unknown, key = token): Promise<TestResponse> {
    const before = await quoteWriteCounts(api);
    const [row] = await db(api).query(`SELECT * FROM quotes.quotes WHERE id = $1`, [quoteId]);
    const response = await sendQuote(api, key, quoteId);
    expect({ status: response.status, code: response.body.code }).toEqual({ status, code });
    if (details !== undefined) expect(response.body.details).toEqual(details);
    expect(await quoteWriteCounts(api)).toEqual(before);
    expect((await db(api).query(`SELECT * FROM quotes.quotes WHERE id = $1`, [quoteId]))[0]).toEqual(row);
    return response;
  }

  it('sends a draft: 200, status sent and sent_at, a new contact, the email queued with the link to the public page', async () => {
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'Nouvelle.Cliente@example.com', prospect_company: 'Condos Nouvelle' });
    const response = await sendQuote(api, token, quote.id);
    expect(response.status).toBe(200);
    const sent = response.body.data;
    expect(sent).toMatchObject({ id: quote.id, status: 'sent', sent_at: '2026-05-03T14:00:00.000Z', prospect_email: 'nouvelle.cliente@example.com' });

    const [contact] = await contactsOf('nouvelle.cliente@example.com');
    expect(contact).toMatchObject({ id: sent.contact_id, source: 'quote' });
    const [created] = await db(api).query(`SELECT payload FROM platform.outbox WHERE type = 'contact_created' AND payload->>'contact_id' = $1`, [contact.id]);
    expect(created.payload.contact).toMatchObject({ email: 'nouvelle.cliente@example.com', first_name: 'Nadia', last_name: 'Bélanger', company: 'Condos Nouvelle', phone: '+15145550142' });
    expect(await db(api).count('platform.activity_log', `account_id = $1 AND contact_id = $2 AND type = 'contact_created'`, [account.account_id, contact.id])).toBe(1);

    const [email] = (await quoteEmails(api, account)).filter((row) => row.to === 'nouvelle.cliente@example.com');
    expect(email).toMatchObject({ subject: `Soumission ${quote.quote_number} de Rénovations Tremblay`, from_email: 'bonjour@tremblay.test', type: 'quote' });
    const link = pageLink(email.html);
    expect(link).toMatch(new RegExp(`^${BASE}/q/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}$`));
    const [stored] = await db(api).query(`SELECT public_token_hash FROM quotes.quotes WHERE id = $1`, [quote.id]);
    const tokenText = link.slice(`${BASE}/q/`.length);
    expect(stored.public_token_hash).toBe(createHash('sha256').update(tokenText).digest('hex'));
    expect(JSON.stringify(await db(api).query(`SELECT * FROM quotes.quotes WHERE id = $1`, [quote.id]))).not.toContain(tokenText);

    const listed = await api.admin('GET', `/accounts/${account.account_id}/emails`);
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ id: email.id, to: 'nouvelle.cliente@example.com', type: 'quote', status: 'queued', subject: `Soumission ${quote.quote_number} de Rénovations Tremblay` }),
    );
    const events = await db(api).query(`SELECT type, payload FROM platform.outbox WHERE type = 'quote_sent' AND payload->>'quote_id' = $1`, [quote.id]);
    expect(events).toEqual([{ type: 'quote_sent', payload: expect.objectContaining({ contact_id: contact.id, contact_created: true }) }]);
  });

  it('links the existing contact found by email (any case) — never a duplicate', async () => {
    const existing = await createContact(api, token, { email: 'deja.la@example.com', first_name: 'Déjà' });
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'DEJA.LA@example.com' });
    expect(expectStatus(await sendQuote(api, token, quote.id), 200).body.data.contact_id).toBe(existing.id);
    expect(await contactsOf('deja.la@example.com')).toHaveLength(1);
  });

  it('links the existing contact found by phone when the email is new', async () => {
    const existing = await createContact(api, token, { phone: '(450) 555-0177', first_name: 'Par téléphone' });
    const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'tel@example.com', prospect_phone: '450.555.0177' });
    expect(expectStatus(await sendQuote(api, token, quote.id), 200).body.data.contact_id).toBe(existing.id);
    expect(await contactsOf('tel@example.com')).toHaveLength(0);
  });

  it('keeps the contact the quote is linked to', async () => {
    const linked = await createContact(api, token, { email: 'lie@example.com' });
    const quote = await createQuote(api, token, { ...SENDABLE, contact_id: linked.id, prospect_email: 'autre.adresse@example.com' });
    expect(expectStatus(await sendQuote(api, token, quote.id), 200).body.data.contact_id).toBe(linked.id);
    expect(await contactsOf('autre.adresse@example.com')).toHaveLength(0);
  });

  it('the email comes from the active sales rep; an inactive rep leaves it to the account default sender', async () => {
    const withRep = await createQuote(api, token, { ...SENDABLE, prospect_email: 'rep1@example.com', sales_rep_id: account.team_members[REP] });
    expectStatus(await sendQuote(api, token, withRep.id), 200);
    const withInactive = await createQuote(api, token, { ...SENDABLE, prospect_email: 'rep2@example.com', sales_rep_id: account.team_members[INACTIVE_REP] });
    expectStatus(await sendQuote(api, token, withInactive.id), 200);
    const emails = await quoteEmails(api, account);
    expect(emails.find((email) => email.to === 'rep1@example.com')?.from_email).toBe(REP);
    expect(emails.find((email) => email.to === 'rep2@example.com')?.from_email).toBe('bonjour@tremblay.test');
  });

  it('an English quote is emailed in English', async () => {
    const quote = await createQuote(api, token, { ...SENDABLE, language: 'en', prospect_email: 'english@example.com' });
    expectStatus(await sendQuote(api, token, quote.id), 200);
    const email = (await quoteEmails(api, account)).find((row) => row.to === 'english@example.com');
    expect(email?.subject).toBe(`Quote ${quote.quote_number} from Rénovations Tremblay`);
    expect(email?.html).toContain('View and sign the quote');
  });

  describe('rejections (nothing written)', () => {
    it('409 already_sent: a sent (or viewed, or declined) quote', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'deux.fois@example.com' });
      expectStatus(await sendQuote(api, token, quote.id), 200);
      await refused(quote.id, 409, 'already_sent', { status: 'sent' });
      expectStatus(await leadAction(api, account, quote.id, 'decline'), 200);
      await refused(quote.id, 409, 'already_sent', { status: 'declined' });
    });

    it('409 already_signed', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'signe@example.com' });
      expectStatus(await sendQuote(api, token, quote.id), 200);
      expectStatus(await leadAction(api, account, quote.id, 'sign'), 200);
      await refused(quote.id, 409, 'already_signed', { status: 'signed' });
    });

    it('409 quote_cancelled', async () => {
      const quote = await createQuote(api, token, SENDABLE);
      expectStatus(await patchQuote(api, token, quote.id, { status: 'cancelled' }), 200);
      await refused(quote.id, 409, 'quote_cancelled', { status: 'cancelled' });
    });

    it('409 quote_status_changed: the draft expired (by the expiry job, or its validity date passed before the job ran)', async () => {
      const past = await createQuote(api, token, { ...SENDABLE, valid_until: '2026-05-02' });
      await refused(past.id, 409, 'quote_status_changed', { status: 'draft', reason: 'valid_until_passed' });
      await api.app.get(CommandBus).execute(new ExpireQuotesCommand());
      await refused(past.id, 409, 'quote_status_changed', { status: 'expired', reason: 'expired' });
    });

    it('422 no_prospect_email', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: null });
      await refused(quote.id, 422, 'no_prospect_email', { field: 'prospect_email' });
    });

    it('422 invalid_prospect_email', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'nadia at example' });
      await refused(quote.id, 422, 'invalid_prospect_email', { field: 'prospect_email' });
    });

    it('422 unpriced_lines: no line item, a line without price, or a zero subtotal', async () => {
      const empty = await createQuote(api, token, { prospect_email: 'a@example.com' });
      await refused(empty.id, 422, 'unpriced_lines', { field: 'line_items', reason: 'no_line_items', lines: [] });
      const unpriced = await createQuote(api, token, { prospect_email: 'a@example.com', line_items: [{ description: 'A', unit_price: 10 }, { description: 'B', quantity: 2 }] });
      await refused(unpriced.id, 422, 'unpriced_lines', { field: 'line_items', reason: 'unpriced_lines', lines: ['line_items[1]'] });
      const free = await createQuote(api, token, { prospect_email: 'a@example.com', line_items: [{ description: 'Estimation gratuite', unit_price: 0 }] });
      await refused(free.id, 422, 'unpriced_lines', { field: 'line_items', reason: 'zero_subtotal', lines: [] });
    });

    it('422 untaxed_quote: taxes 0 without tax_exempt_reason; with a reason it sends', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'sans.taxe@example.com', tax_profile_id: 'none' });
      await refused(quote.id, 422, 'untaxed_quote', { field: 'tax_exempt_reason', tax_profile: 'none' });
      expectStatus(await patchQuote(api, token, quote.id, { tax_exempt_reason: 'Exportation hors Québec' }), 200);
      expectStatus(await sendQuote(api, token, quote.id), 200);
    });

    it('422 deposit_not_payable: a fixed deposit above the total', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, line_items: [{ description: 'A', unit_price: 100 }] });
      expectStatus(await patchQuote(api, token, quote.id, { payment_plan_type: 'deposit', payment_deposit_type: 'fixed', payment_deposit_value: 500 }), 200);
      await refused(quote.id, 422, 'deposit_not_payable', { field: 'payment_deposit_value', deposit: 500, total: 114.98 });
    });

    it('409 recipient_unsubscribed: the prospect email is on the unsubscribe list; no contact is created', async () => {
      await unsubscribe(api, account, 'Desabonne@example.com');
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'desabonne@example.com' });
      await refused(quote.id, 409, 'recipient_unsubscribed', { field: 'prospect_email' });
      expect(await contactsOf('desabonne@example.com')).toEqual([]);
    });

    it('409 sender_unavailable: no active sales rep and no default sender', async () => {
      const bare = await api.provision(quotesBlueprint({ senders: [] }));
      const quote = await createQuote(api, bare.api_keys.full.key, { ...SENDABLE, sales_rep_id: bare.team_members[INACTIVE_REP] });
      await refused(quote.id, 409, 'sender_unavailable', null, bare.api_keys.full.key);
      const withRep = await createQuote(api, bare.api_keys.full.key, { ...SENDABLE, sales_rep_id: bare.team_members[REP] });
      expectStatus(await sendQuote(api, bare.api_keys.full.key, withRep.id), 200);
    });

    it('404 resource_not_found: unknown, not a UUID, archived, or another account\'s quote', async () => {
      const other = await api.provision(quotesBlueprint());
      const theirs = await createQuote(api, other.api_keys.full.key, SENDABLE);
      const archived = await createQuote(api, token, SENDABLE);
      await archiveQuote(api, account, archived.id);
      for (const id of [newId(), 'nope', archived.id, theirs.id]) {
        const response = await sendQuote(api, token, id);
        expect({ status: response.status, code: response.body.code }).toEqual({ status: 404, code: 'resource_not_found' });
      }
      expect((await db(api).query(`SELECT status FROM quotes.quotes WHERE id = $1`, [theirs.id]))[0].status).toBe('draft');
    });
  });

  describe('concurrency', () => {
    it('409 send_in_progress while another transaction holds the quote (row lock), then the send goes through', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_email: 'verrou@example.com' });
      const runner = api.app.get(DataSource).createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        await runner.query(`SELECT id FROM quotes.quotes WHERE account_id = $1 AND id = $2 FOR UPDATE`, [account.account_id, quote.id]);
        await refused(quote.id, 409, 'send_in_progress', null);
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
      expectStatus(await sendQuote(api, token, quote.id), 200);
    });

    it('parallel sends of one quote: exactly one succeeds, the others get send_in_progress or already_sent; one email, one contact', async () => {
      const quote = await createQuote(api, token, { ...SENDABLE, prospect_phone: null, prospect_email: 'course@example.com' });
      const responses = await Promise.all(Array.from({ length: 6 }, () => sendQuote(api, token, quote.id)));
      const outcomes = responses.map((response) => (response.status === 200 ? 'sent' : response.body.code));
      expect(outcomes.filter((outcome) => outcome === 'sent')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome !== 'sent').every((code) => ['send_in_progress', 'already_sent'].includes(code))).toBe(true);
      expect(responses.every((response) => response.status !== 500)).toBe(true);
      expect((await quoteEmails(api, account)).filter((email) => email.to === 'course@example.com')).toHaveLength(1);
      expect(await contactsOf('course@example.com')).toHaveLength(1);
    });

    it('parallel sends of two quotes to the same new lead create one contact only', async () => {
      const first = await createQuote(api, token, { ...SENDABLE, prospect_phone: null, prospect_email: 'jumeaux@example.com' });
      const second = await createQuote(api, token, { ...SENDABLE, prospect_phone: null, prospect_email: 'Jumeaux@example.com' });
      const responses = await Promise.all([sendQuote(api, token, first.id), sendQuote(api, token, second.id)]);
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      const contacts = await contactsOf('jumeaux@example.com');
      expect(contacts).toHaveLength(1);
      expect(responses.map((response) => response.body.data.contact_id)).toEqual([contacts[0].id, contacts[0].id]);
    });
  });
});
