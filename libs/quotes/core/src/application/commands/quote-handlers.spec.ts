import { asAccountId, DomainError, FixedClock, newId, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import { ApplyQuoteLeadActionCommand, ExpireQuotesCommand, QUOTE_EVENTS, QuoteView } from '@leadflow/quotes-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import {
  FakeQuoteAccounts,
  FakeQuoteContacts,
  FakeQuoteMailer,
  FakeQuotePublicLinks,
  InMemoryQuoteRepository,
  InMemoryQuotesStore,
} from '../../testing/in-memory-quotes';
import { readPublicToken } from '../public-token';
import { CreateQuoteHandler } from './create-quote/create-quote.handler';
import { ExpireQuotesHandler } from './expire-quotes/expire-quotes.handler';
import { ApplyPublicQuoteActionHandler } from './apply-public-quote-action/apply-public-quote-action.handler';
import { ApplyQuoteLeadActionHandler } from './apply-quote-lead-action/apply-quote-lead-action.handler';
import { OpenPublicQuoteHandler } from './open-public-quote/open-public-quote.handler';
import { LeadActionRunner } from '../lead-action.runner';
import { ApplyPublicQuoteActionCommand } from './apply-public-quote-action/apply-public-quote-action.command';
import { CreateQuoteCommand } from './create-quote/create-quote.command';
import { OpenPublicQuoteCommand } from './open-public-quote/open-public-quote.command';
import { SendQuoteCommand } from './send-quote/send-quote.command';
import { UpdateQuoteCommand } from './update-quote/update-quote.command';
import { SendQuoteHandler } from './send-quote/send-quote.handler';
import { UpdateQuoteHandler } from './update-quote/update-quote.handler';

const ACCOUNT = asAccountId('5f0c7c1e-3c1f-4a57-9d2b-0d6f2f2b8a11');
const OTHER = asAccountId('6a1d8d2f-4d2a-4b68-8e3c-1e7a3a3c9b22');
const ACTOR = { type: 'api_key' as const, id: 'key', name: 'full', via: 'api_key' as const };

function setup(now = new Date('2026-05-03T14:00:00.000Z')) {
  const store = new InMemoryQuotesStore();
  const clock = new FixedClock(now);
  const quotes = new InMemoryQuoteRepository(store);
  const accounts = new FakeQuoteAccounts();
  const contacts = new FakeQuoteContacts(store);
  const mailer = new FakeQuoteMailer(store);
  const unitOfWork = new InMemoryUnitOfWork(store);
  const journal = new InMemoryJournal(store);
  const links = new FakeQuotePublicLinks();
  const defaults = { validityDays: 30, paymentTerms: 'Net 30', signaturePaymentOrder: 'signature_first' as const, taxProfile: 'gst_qst' as const };
  accounts.accounts.set(ACCOUNT, { name: 'Rénovations Tremblay', timezone: 'America/Montreal', defaults });
  accounts.accounts.set(OTHER, { name: 'Toitures Bergeron', timezone: 'America/Vancouver', defaults: { ...defaults, validityDays: 10 } });
  const runner = new LeadActionRunner(quotes, journal, clock, links);
  const handlers = {
    create: new CreateQuoteHandler(quotes, accounts, contacts, unitOfWork, journal, clock, links),
    update: new UpdateQuoteHandler(quotes, accounts, contacts, unitOfWork, journal, clock, links),
    send: new SendQuoteHandler(quotes, accounts, contacts, mailer, links, unitOfWork, journal, clock),
    leadAction: new ApplyQuoteLeadActionHandler(quotes, runner, unitOfWork),
    open: new OpenPublicQuoteHandler(quotes, accounts, runner, unitOfWork, clock),
    publicAction: new ApplyPublicQuoteActionHandler(quotes, accounts, runner, unitOfWork, clock),
    expire: new ExpireQuotesHandler(quotes, unitOfWork, journal, clock, links),
  };
  const create = (input: CreateQuoteCommand['input'] = {}, accountId = ACCOUNT) =>
    handlers.create.execute(new CreateQuoteCommand(accountId, { prospectEmail: 'nadia@example.com', lineItems: [{ description: 'Armoires', unitPrice: 100 }], ...input }, ACTOR));
  const send = (quote: QuoteView, accountId = ACCOUNT) => handlers.send.execute(new SendQuoteCommand(accountId, quote.id, ACTOR));
  return { store, clock, quotes, accounts, contacts, mailer, links, handlers, create, send };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('CreateQuoteHandler', () => {
  it('numbers quotes from the account sequence per local year, each account its own', async () => {
    const t = setup();
    const numbers = [(await t.create()).quote_number, (await t.create()).quote_number, (await t.create({}, OTHER)).quote_number];
    expect(numbers).toEqual(['2026-0001', '2026-0002', '2026-0001']);
    t.clock.set(new Date('2027-01-01T04:30:00.000Z')); // still 2026 in Montreal
    expect((await t.create()).quote_number).toBe('2026-0003');
    t.clock.set(new Date('2027-01-01T05:30:00.000Z'));
    expect((await t.create()).quote_number).toBe('2027-0001');
  });

  it('validity counts from today in the account zone: 2026-05-04 02:00 UTC is still May 3 in Montreal', async () => {
    const t = setup(new Date('2026-05-04T02:00:00.000Z'));
    expect((await t.create()).valid_until).toBe('2026-06-02');
    expect((await t.create({}, OTHER)).valid_until).toBe('2026-05-13');
  });

  it('writes a quote_created activity and outbox event', async () => {
    const t = setup();
    const quote = await t.create();
    expect(t.store.entries).toEqual([expect.objectContaining({ type: 'quote_created', accountId: ACCOUNT })]);
    expect(t.store.events).toEqual([expect.objectContaining({ type: QUOTE_EVENTS.created, payload: expect.objectContaining({ quote_id: quote.id, quote }) })]);
  });

  it('contact_id of another account: 400 validation_error not_found_in_tenant, nothing written, no number used', async () => {
    const t = setup();
    t.contacts.cards.set('c-other', { id: 'c-other', accountId: OTHER, first_name: 'Z', last_name: null, email: 'z@example.com', phone: null, company: null, archived: false });
    const foreign = newId();
    t.contacts.cards.set(foreign, { id: foreign, accountId: OTHER, first_name: 'Z', last_name: null, email: 'z@example.com', phone: null, company: null, archived: false });
    const error = await t.create({ contactId: foreign }).catch((caught: DomainError) => caught);
    expect(error).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'contact_id', reason: 'not_found_in_tenant' })] });
    expect(t.store.quotes).toEqual([]);
    expect((await t.create()).quote_number).toBe('2026-0001');
  });

  it('prospect fields omitted are read from the contact', async () => {
    const t = setup();
    const id = newId();
    t.contacts.cards.set(id, { id, accountId: ACCOUNT, first_name: 'Julie', last_name: 'Roy', email: 'julie@example.com', phone: '+15145550142', company: 'Condos Roy', archived: false });
    const quote = await t.handlers.create.execute(new CreateQuoteCommand(ACCOUNT, { contactId: id }, ACTOR));
    expect(quote).toMatchObject({ contact_id: id, prospect_name: 'Julie Roy', prospect_email: 'julie@example.com', prospect_phone: '+15145550142', prospect_company: 'Condos Roy' });
  });

  it('sales_rep_id must be a sales rep of the account', async () => {
    const t = setup();
    const rep = newId();
    t.accounts.members.set(rep, { id: rep, accountId: OTHER, email: 'rep@other.test', name: 'Rep', isActive: true, isSalesRep: true });
    expect(await codeOf(t.create({ salesRepId: rep }))).toBe('validation_error');
  });
});

describe('UpdateQuoteHandler', () => {
  it('writes quote_updated with the changes; an archived or foreign quote is 404 resource_not_found', async () => {
    const t = setup();
    const quote = await t.create();
    const updated = await t.handlers.update.execute(new UpdateQuoteCommand(ACCOUNT, quote.id, { taxExemptReason: 'Exportation' }, ACTOR));
    expect(updated).toMatchObject({ tax_exempt_reason: 'Exportation', tps_amount: 0, tvq_amount: 0, total: 100 });
    expect(t.store.events.at(-1)).toMatchObject({ type: QUOTE_EVENTS.updated, payload: { changes: expect.objectContaining({ total: { previous: 11_498, current: 10_000 } }) } });
    expect(await codeOf(t.handlers.update.execute(new UpdateQuoteCommand(OTHER, quote.id, { internalNotes: 'x' }, ACTOR)))).toBe('resource_not_found');
    t.store.quotes[0].archivedAt = new Date();
    expect(await codeOf(t.handlers.update.execute(new UpdateQuoteCommand(ACCOUNT, quote.id, { internalNotes: 'x' }, ACTOR)))).toBe('resource_not_found');
  });

  it('locked field means locked: signature_payment_order with its current value on a sent quote gives 409 signature_payment_order_locked, nothing written', async () => {
    const t = setup();
    const quote = await t.send(await t.create());
    const before = t.store.snapshot();
    const error = await t.handlers.update
      .execute(new UpdateQuoteCommand(ACCOUNT, quote.id, { signaturePaymentOrder: quote.signature_payment_order, internalNotes: 'x' }, ACTOR))
      .catch((caught: DomainError) => caught);
    expect(error).toMatchObject({ code: 'signature_payment_order_locked', details: { field: 'signature_payment_order', status: 'sent' } });
    expect(t.store.snapshot()).toEqual(before);
  });

  it('locked field means locked: a payment plan field with its current value once a payment is collected gives 409 payment_plan_locked, nothing written', async () => {
    const t = setup();
    const quote = await t.send(await t.create());
    await t.handlers.leadAction.execute(new ApplyQuoteLeadActionCommand(ACCOUNT, quote.id, 'sign', ACTOR));
    const paid = await t.handlers.leadAction.execute(new ApplyQuoteLeadActionCommand(ACCOUNT, quote.id, 'pay', ACTOR));
    const before = t.store.snapshot();
    const error = await t.handlers.update
      .execute(new UpdateQuoteCommand(ACCOUNT, quote.id, { paymentPlanType: paid.payment_plan_type, paymentExecutionMode: paid.payment_execution_mode }, ACTOR))
      .catch((caught: DomainError) => caught);
    expect(error).toMatchObject({ code: 'payment_plan_locked', details: { conflicting_fields: ['payment_plan_type', 'payment_execution_mode'] } });
    expect(t.store.snapshot()).toEqual(before);
  });

  it('sub-cent unit prices: the view echoes unit_price and quantity as given, amounts in dollars with 2 decimals', async () => {
    const t = setup();
    const quote = await t.create({ lineItems: [{ description: 'Plancher (pi²)', quantity: 1250.5, unitPrice: 2.375 }, { description: 'Frais', quantity: 1, unitPrice: 0.5 }] });
    expect(quote.line_items).toEqual([
      { description: 'Plancher (pi²)', quantity: 1250.5, unit_price: 2.375, amount: 2969.94 },
      { description: 'Frais', quantity: 1, unit_price: 0.5, amount: 0.5 },
    ]);
    // 2969.9375 + 0.50 = 2970.4375 → 2970.44; TPS 148.522 → 148.52; TVQ 296.301390 → 296.30
    expect(quote).toMatchObject({ subtotal: 2970.44, tps_amount: 148.52, tvq_amount: 296.3, total: 3415.26 });
  });

  it('PATCH status cancelled writes quote_cancelled', async () => {
    const t = setup();
    const quote = await t.create();
    expect((await t.handlers.update.execute(new UpdateQuoteCommand(ACCOUNT, quote.id, { status: 'cancelled' }, ACTOR))).status).toBe('cancelled');
    expect(t.store.events.at(-1)?.type).toBe(QUOTE_EVENTS.cancelled);
  });
});

describe('SendQuoteHandler', () => {
  it('sends: status sent, sent_at, contact created, email queued from the business with the page link', async () => {
    const t = setup();
    const quote = await t.create({ prospectName: 'Nadia Bélanger <script>' });
    const sent = await t.send(quote);
    expect(sent).toMatchObject({ status: 'sent', sent_at: '2026-05-03T14:00:00.000Z', contact_id: t.store.createdContacts[0].id });
    expect(t.store.createdContacts).toEqual([expect.objectContaining({ email: 'nadia@example.com', firstName: 'Nadia', lastName: 'Bélanger <script>' })]);
    const [email] = t.store.emails;
    expect(email).toMatchObject({ to: 'nadia@example.com', type: 'quote', from: null, subject: 'Soumission 2026-0001 de Rénovations Tremblay' });
    expect(email.html).toContain('Nadia Bélanger &lt;script&gt;');
    const token = /https:\/\/leadflow\.test\/q\/([A-Za-z0-9_.-]+)/.exec(email.html)?.[1] ?? '';
    expect(readPublicToken(token)).toMatchObject({ accountId: ACCOUNT, hash: t.store.quotes[0].publicTokenHash });
    expect(t.store.events.at(-1)).toMatchObject({ type: QUOTE_EVENTS.sent });
  });

  it('public_url: null on a draft, the link of the quote email once sent, the same on every later read of the quote', async () => {
    const t = setup();
    const draft = await t.create();
    expect(draft.public_url).toBeNull();
    const sent = await t.send(draft);
    const link = /https:\/\/leadflow\.test\/q\/[A-Za-z0-9_.-]+/.exec(t.store.emails[0].html)?.[0];
    expect(sent.public_url).toBe(link);
    expect(t.store.events.at(-1)?.payload).toMatchObject({ quote: { public_url: link } });
    const token = link!.slice('https://leadflow.test/q/'.length);
    expect((await t.handlers.open.execute(new OpenPublicQuoteCommand(token)))?.quote).toMatchObject({ status: 'viewed', public_url: link });
    const signed = await t.handlers.leadAction.execute(new ApplyQuoteLeadActionCommand(ACCOUNT, sent.id, 'sign', SYSTEM_ACTOR));
    expect(signed).toMatchObject({ status: 'signed', public_url: link });
  });

  it('public_url is null when the stored token hash is not that of the derived token (server key changed): the old link still opens the page', async () => {
    const t = setup();
    const sent = await t.send(await t.create());
    const token = sent.public_url!.slice('https://leadflow.test/q/'.length);
    t.links.secret = Buffer.alloc(32, 8);
    const reread = await t.handlers.leadAction.execute(new ApplyQuoteLeadActionCommand(ACCOUNT, sent.id, 'view', SYSTEM_ACTOR));
    expect(reread.public_url).toBeNull();
    expect((await t.handlers.open.execute(new OpenPublicQuoteCommand(token)))?.quote.id).toBe(sent.id);
  });

  it('the email comes from the active sales rep; an inactive one leaves it to the default sender', async () => {
    const t = setup();
    const rep = newId();
    t.accounts.members.set(rep, { id: rep, accountId: ACCOUNT, email: 'julie@tremblay.test', name: 'Julie Roy', isActive: true, isSalesRep: true });
    await t.send(await t.create({ salesRepId: rep }));
    expect(t.store.emails[0].from).toEqual({ email: 'julie@tremblay.test', name: 'Julie Roy' });
    t.accounts.members.set(rep, { ...t.accounts.members.get(rep)!, isActive: false });
    await t.send(await t.create({ salesRepId: rep }));
    expect(t.store.emails[1].from).toBeNull();
  });

  it('no sender at all: 409 sender_unavailable and nothing written (no contact, no email, still draft)', async () => {
    const t = setup();
    const quote = await t.create();
    t.mailer.hasDefaultSender = false;
    const before = t.store.snapshot();
    expect(await codeOf(t.send(quote))).toBe('sender_unavailable');
    expect(t.store.snapshot()).toBe(before);
  });

  it('an unsubscribed recipient: 409 recipient_unsubscribed, nothing written', async () => {
    const t = setup();
    const quote = await t.create();
    t.contacts.unsubscribed.add('nadia@example.com');
    const before = t.store.snapshot();
    expect(await codeOf(t.send(quote))).toBe('recipient_unsubscribed');
    expect(t.store.snapshot()).toBe(before);
  });

  it('a send holding the row: 409 send_in_progress', async () => {
    const t = setup();
    const quote = await t.create();
    t.quotes.locked.add(quote.id);
    expect(await codeOf(t.send(quote))).toBe('send_in_progress');
  });

  it('a concurrent creation of the lead contact: the send runs again and links the winner (never a duplicate)', async () => {
    const t = setup();
    const quote = await t.create();
    t.contacts.failNextCreate = true;
    const sent = await t.send(quote);
    expect(t.store.createdContacts).toEqual([]);
    expect(sent.contact_id).toBe([...t.contacts.cards.values()][0].id);
    expect(t.store.emails).toHaveLength(1);
  });

  it('already sent: 409 already_sent', async () => {
    const t = setup();
    const quote = await t.create();
    await t.send(quote);
    expect(await codeOf(t.send(quote))).toBe('already_sent');
  });

  it('the prospect email falls back to the linked contact', async () => {
    const t = setup();
    const id = newId();
    t.contacts.cards.set(id, { id, accountId: ACCOUNT, first_name: 'Julie', last_name: null, email: null, phone: null, company: null, archived: false });
    const quote = await t.handlers.create.execute(new CreateQuoteCommand(ACCOUNT, { contactId: id, lineItems: [{ description: 'A', unitPrice: 10 }] }, ACTOR));
    expect(await codeOf(t.send(quote))).toBe('no_prospect_email');
    t.contacts.cards.set(id, { ...t.contacts.cards.get(id)!, email: 'julie@example.com' });
    expect((await t.send(quote)).prospect_email).toBe('julie@example.com');
    expect(t.store.createdContacts).toEqual([]);
  });
});

describe('lead actions and the public page', () => {
  it('the page token opens the quote (sent → viewed), Sign signs it; an unknown token finds nothing', async () => {
    const t = setup();
    await t.send(await t.create());
    const token = /q\/([A-Za-z0-9_.-]+)/.exec(t.store.emails[0].html)?.[1] ?? '';
    const opened = await t.handlers.open.execute(new OpenPublicQuoteCommand(token));
    expect(opened).toMatchObject({ businessName: 'Rénovations Tremblay', quote: { status: 'viewed' } });
    expect((await t.handlers.publicAction.execute(new ApplyPublicQuoteActionCommand(token, 'sign')))?.quote.status).toBe('signed');
    expect(await t.handlers.open.execute(new OpenPublicQuoteCommand(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`))).toBeNull();
    expect(await t.handlers.open.execute(new OpenPublicQuoteCommand('garbage'))).toBeNull();
  });

  it('pay records a payment and a payment_received event', async () => {
    const t = setup();
    const quote = await t.send(await t.create());
    await t.handlers.leadAction.execute(new ApplyQuoteLeadActionCommand(ACCOUNT, quote.id, 'sign', SYSTEM_ACTOR));
    const paid = await t.handlers.leadAction.execute(new ApplyQuoteLeadActionCommand(ACCOUNT, quote.id, 'pay', SYSTEM_ACTOR));
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 114.98 });
    expect(t.store.payments).toEqual([expect.objectContaining({ quoteId: quote.id, amountCents: 11_498 })]);
    expect(t.store.events.map((event) => event.type).slice(-2)).toEqual([QUOTE_EVENTS.paymentReceived, QUOTE_EVENTS.paid]);
  });
});

describe('ExpireQuotesHandler (FixedClock)', () => {
  it('expires draft, sent and viewed quotes once valid_until is past in their account zone', async () => {
    const t = setup(new Date('2026-05-03T14:00:00.000Z'));
    const draft = await t.create({ validUntil: '2026-05-10' });
    const sent = await t.send(await t.create({ validUntil: '2026-05-10' }));
    const later = await t.create({ validUntil: '2026-05-11' });
    const vancouver = await t.create({ validUntil: '2026-05-10' }, OTHER);
    // 2026-05-11 04:30 UTC: May 11 in UTC, still May 10 in Montreal
    t.clock.set(new Date('2026-05-11T03:30:00.000Z'));
    expect(await t.handlers.expire.execute(new ExpireQuotesCommand())).toEqual({ expired: 0 });
    t.clock.set(new Date('2026-05-11T04:30:00.000Z'));
    expect(await t.handlers.expire.execute(new ExpireQuotesCommand())).toEqual({ expired: 2 });
    const status = (id: string) => t.store.quotes.find((quote) => quote.id === id)?.status;
    expect([status(draft.id), status(sent.id), status(later.id), status(vancouver.id)]).toEqual(['expired', 'expired', 'draft', 'draft']);
    t.clock.set(new Date('2026-05-11T07:30:00.000Z')); // May 11 in Vancouver
    expect(await t.handlers.expire.execute(new ExpireQuotesCommand())).toEqual({ expired: 1 });
    expect(await t.handlers.expire.execute(new ExpireQuotesCommand())).toEqual({ expired: 0 });
    expect(t.store.events.filter((event) => event.type === QUOTE_EVENTS.expired)).toHaveLength(3);
  });
});
