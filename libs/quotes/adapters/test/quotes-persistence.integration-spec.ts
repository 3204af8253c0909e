import { getQueueToken } from '@nestjs/bullmq';
import { Test, TestingModule } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AccountId, asAccountId, decodeCursor, newId } from '@leadflow/shared-kernel';
import { PlatformModule, QueueModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { ContactQuotesReassignment, QuoteRepository, QuoteRowLockedError, QuotesReadModel, QuoteState } from '@leadflow/quotes-core';
import { QUOTE_EXPIRY_QUEUE, QuotesJobsModule } from '../src';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const QUIET = { log: () => undefined, error: () => undefined, warn: () => undefined, debug: () => undefined, verbose: () => undefined };

/**
 * The quotes adapters on real PostgreSQL and Redis, through QuotesJobsModule (the worker's module): the
 * quote repository (line items, numbering, the number's uniqueness, tenant filters, the NOWAIT and SKIP
 * LOCKED locks of the send and the expiry), the list read model's keyset pages, the contacts-merge
 * reassignment and the expiry job on BullMQ.
 */
describe('Quotes adapters (PostgreSQL, Redis, BullMQ)', () => {
  let services: TestServices;
  let moduleRef: TestingModule;
  let db: DataSource;
  let quotes: QuoteRepository;
  let reads: QuotesReadModel;
  let reassignment: ContactQuotesReassignment;
  let transactions: TransactionHost;
  let queue: Queue;
  let numbers = 0;

  beforeAll(async () => {
    services = await createTestServices();
    moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot({ config: services.config() }), QueueModule.forRoot(), QuotesJobsModule] })
      .setLogger(QUIET)
      .compile();
    await moduleRef.init();
    db = moduleRef.get(DataSource);
    quotes = moduleRef.get(QuoteRepository);
    reads = moduleRef.get(QuotesReadModel);
    reassignment = moduleRef.get(ContactQuotesReassignment);
    transactions = moduleRef.get(TransactionHost);
    queue = moduleRef.get(getQueueToken(QUOTE_EXPIRY_QUEUE));
  });
  afterAll(async () => {
    await moduleRef?.close();
    await services?.dispose();
  });

  const state = (accountId: AccountId, overrides: Partial<QuoteState> = {}): QuoteState => {
    numbers += 1;
    const at = new Date('2026-05-01T12:00:00.000Z');
    return {
      id: newId(),
      accountId,
      quoteNumber: `2026-${String(numbers).padStart(4, '0')}`,
      status: 'draft',
      contactId: null,
      prospectName: 'Julie Roy',
      prospectEmail: 'julie@roy.test',
      prospectPhone: null,
      prospectCompany: null,
      prospectAddress: null,
      language: 'fr',
      validUntil: null,
      timezone: 'America/Montreal',
      paymentTerms: null,
      lineItems: [{ description: 'Toiture', quantity: '1', unitPrice: '1000.00' }],
      internalNotes: '',
      salesRepId: null,
      taxProfileId: null,
      taxProfile: 'gst_qst',
      signaturePaymentOrder: 'signature_first',
      taxExemptReason: null,
      subtotalCents: 100_000,
      tpsCents: 5_000,
      tvqCents: 9_975,
      totalCents: 114_975,
      amountPaidCents: 0,
      paymentsCount: 0,
      paymentPlanType: 'full',
      paymentDepositType: null,
      paymentDepositValue: null,
      paymentInstallmentsCount: null,
      paymentIntervalDays: null,
      paymentExecutionMode: 'manual',
      publicTokenHash: null,
      sentAt: null,
      viewedAt: null,
      signedAt: null,
      declinedAt: null,
      cancelledAt: null,
      expiredAt: null,
      paidAt: null,
      archivedAt: null,
      createdAt: at,
      updatedAt: at,
      ...overrides,
    };
  };

  const insert = async (accountId: AccountId, overrides: Partial<QuoteState> = {}): Promise<QuoteState> => {
    const quote = state(accountId, overrides);
    await transactions.run(() => quotes.insert(quote));
    return quote;
  };

  /** Holds a row lock in another transaction until the returned `release` is called. */
  const holdLock = async (accountId: AccountId, quoteId: string) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const done = transactions.run(async () => {
      await quotes.find(accountId, quoteId, { lock: 'wait' });
      locked();
      await released;
    });
    await taken;
    return async () => {
      release();
      await done;
    };
  };

  it("a quote's line items are written and read back in position order, sub-cent prices as exact decimal text", async () => {
    const accountId = asAccountId(newId());
    const lines = [
      { description: 'Bardeaux', quantity: '12.5', unitPrice: '3.1415' },
      { description: 'Main-d’œuvre', quantity: '8', unitPrice: '65.00' },
      { description: 'Conteneur (à préciser)', quantity: '1', unitPrice: null },
    ];
    const quote = await insert(accountId, { lineItems: lines });
    expect((await quotes.find(accountId, quote.id))?.lineItems).toEqual(lines);
    const [row] = await db.query(`SELECT line_items FROM quotes.quotes WHERE id = $1`, [quote.id]);
    expect(row.line_items).toEqual(lines.map((line) => ({ description: line.description, quantity: line.quantity, unit_price: line.unitPrice })));
  });

  it('a line stored in the legacy whole-cents shape (unit_price_cents) reads as the same price in dollars', async () => {
    const accountId = asAccountId(newId());
    const quote = await insert(accountId);
    await db.query(`UPDATE quotes.quotes SET line_items = '[{"description":"A","quantity":"2","unit_price_cents":1999},{"description":"B","quantity":"1","unit_price_cents":null}]' WHERE id = $1`, [quote.id]);
    expect((await quotes.find(accountId, quote.id))?.lineItems).toEqual([
      { description: 'A', quantity: '2', unitPrice: '19.99' },
      { description: 'B', quantity: '1', unitPrice: null },
    ]);
  });

  it("quote numbers count per account and year, from 1, without gaps or repeats under concurrent creations", async () => {
    const a = asAccountId(newId());
    const b = asAccountId(newId());
    const drawn = await Promise.all(Array.from({ length: 8 }, () => transactions.run(() => quotes.nextSequence(a, 2026))));
    expect([...drawn].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await transactions.run(() => quotes.nextSequence(a, 2027))).toBe(1);
    expect(await transactions.run(() => quotes.nextSequence(b, 2026))).toBe(1);
    expect(await db.query(`SELECT year, last_value FROM quotes.quote_sequences WHERE account_id = $1 ORDER BY year`, [a])).toEqual([
      { year: 2026, last_value: 8 },
      { year: 2027, last_value: 1 },
    ]);
  });

  it("a quote number is unique within its account (quotes_number_uq) and free in another account", async () => {
    const a = asAccountId(newId());
    const first = await insert(a);
    await expect(transactions.run(() => quotes.insert(state(a, { quoteNumber: first.quoteNumber })))).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'quotes_number_uq' } });
    await insert(asAccountId(newId()), { quoteNumber: first.quoteNumber });
    expect(await db.query(`SELECT count(*)::int AS n FROM quotes.quotes WHERE quote_number = $1`, [first.quoteNumber])).toEqual([{ n: 2 }]);
  });

  it("another account's quote id reads as missing (find, by token), a non-UUID id as missing, an upper-case id as the quote", async () => {
    const a = asAccountId(newId());
    const b = asAccountId(newId());
    const quote = await insert(a, { publicTokenHash: 'ab'.repeat(32) });
    expect(await quotes.find(b, quote.id)).toBeNull();
    expect(await quotes.findByTokenHash(b, 'ab'.repeat(32))).toBeNull();
    expect((await quotes.findByTokenHash(a, 'ab'.repeat(32)))?.id).toBe(quote.id);
    expect(await quotes.find(a, 'Q-2026-0001')).toBeNull();
    expect((await quotes.find(a, quote.id.toUpperCase()))?.id).toBe(quote.id);
  });

  it("an update writes the quote's state but never its number nor its creation time, and only in its account", async () => {
    const a = asAccountId(newId());
    const quote = await insert(a);
    const sentAt = new Date('2026-05-02T09:00:00.000Z');
    await transactions.run(() => quotes.update({ ...quote, quoteNumber: 'X-1', createdAt: sentAt, status: 'sent', sentAt, updatedAt: sentAt }));
    await transactions.run(() => quotes.update({ ...quote, accountId: asAccountId(newId()), status: 'cancelled' }));
    const [row] = await db.query(`SELECT quote_number, status, sent_at, created_at FROM quotes.quotes WHERE id = $1`, [quote.id]);
    expect(row).toEqual({ quote_number: quote.quoteNumber, status: 'sent', sent_at: sentAt, created_at: quote.createdAt });
  });

  it('a NOWAIT read of a quote another transaction holds fails at once with QuoteRowLockedError (the send answers 409)', async () => {
    const a = asAccountId(newId());
    const quote = await insert(a);
    const release = await holdLock(a, quote.id);
    try {
      const started = Date.now();
      await expect(transactions.run(() => quotes.find(a, quote.id, { lock: 'nowait' }))).rejects.toBeInstanceOf(QuoteRowLockedError);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await release();
    }
    expect((await transactions.run(() => quotes.find(a, quote.id, { lock: 'nowait' })))?.id).toBe(quote.id);
  });

  it('the expiry takes the expirable quotes past their date in creation order and skips a row another transaction holds (SKIP LOCKED)', async () => {
    const a = asAccountId(newId());
    const past = '2026-01-10';
    const first = await insert(a, { validUntil: past, createdAt: new Date('2026-01-01T00:00:00.000Z') });
    const second = await insert(a, { validUntil: past, status: 'viewed', createdAt: new Date('2026-01-02T00:00:00.000Z') });
    const held = await insert(a, { validUntil: past, status: 'sent' });
    await insert(a, { validUntil: past, status: 'signed' });
    await insert(a, { validUntil: past, archivedAt: new Date() });
    await insert(a, { validUntil: past, amountPaidCents: 100 });
    await insert(a, { validUntil: '2026-02-01' }); // today or later
    await insert(a, { validUntil: past, timezone: 'America/Vancouver' }); // another zone: another group
    const groups = (await quotes.expiryGroups('2026-02-01')).filter((group) => group.accountId === a);
    expect(groups.map((group) => group.timezone).sort()).toEqual(['America/Montreal', 'America/Vancouver']);
    const release = await holdLock(a, held.id);
    try {
      const taken = await transactions.run(() => quotes.lockExpiryCandidates(a, 'America/Montreal', '2026-02-01'));
      expect(taken.map((quote) => quote.id)).toEqual([first.id, second.id]);
    } finally {
      await release();
    }
    expect((await transactions.run(() => quotes.lockExpiryCandidates(a, 'America/Montreal', '2026-02-01'))).map((quote) => quote.id)).toContain(held.id);
    await db.query(`UPDATE quotes.quotes SET valid_until = NULL WHERE account_id = $1`, [a]); // nothing left for the job below
  });

  it("a job on the expiry queue expires the account's overdue quotes (status expired, quote_expired in the outbox) and leaves the others", async () => {
    const a = asAccountId(newId());
    const overdue = await insert(a, { validUntil: '2020-01-01', status: 'sent' });
    const current = await insert(a, { validUntil: '2999-01-01', status: 'sent' });
    await queue.add('expire-quotes', {}, { jobId: `test-${newId()}` });
    await waitFor(async () => (await db.query(`SELECT status FROM quotes.quotes WHERE id = $1`, [overdue.id]))[0].status, (status) => status === 'expired', 'the overdue quote to expire');
    expect((await db.query(`SELECT status, expired_at FROM quotes.quotes WHERE id = $1`, [current.id]))[0]).toEqual({ status: 'sent', expired_at: null });
    const events = await db.query(`SELECT type, payload FROM platform.outbox WHERE account_id = $1`, [a]);
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('quote_expired');
    expect(JSON.stringify(events[0].payload)).toContain(overdue.id);
  });

  it('the list pages on (created_at, id) descending with cursors, keeps to the account, leaves archived quotes out and filters on status', async () => {
    const a = asAccountId(newId());
    const base = Date.parse('2026-04-01T10:00:00.000Z');
    const made: QuoteState[] = [];
    for (const [offset, status] of [[0, 'draft'], [0, 'sent'], [1000, 'draft'], [2000, 'sent'], [3000, 'draft']] as const) {
      made.push(await insert(a, { status, createdAt: new Date(base + offset) }));
    }
    await insert(a, { archivedAt: new Date(), createdAt: new Date(base + 5000) });
    await insert(asAccountId(newId()), { createdAt: new Date(base + 4000) });
    const expected = [...made].sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (y.id < x.id ? -1 : 1)).map((quote) => quote.id);
    const first = await reads.list(a, { status: null, page: { limit: 2, after: null } });
    const second = await reads.list(a, { status: null, page: { limit: 2, after: decodeCursor(first.pagination.next_cursor!) } });
    const third = await reads.list(a, { status: null, page: { limit: 2, after: decodeCursor(second.pagination.next_cursor!) } });
    expect(first.pagination).toMatchObject({ has_more: true, total_count: 5 });
    expect(third.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.data, ...second.data, ...third.data].map((view: any) => view.id)).toEqual(expected);
    const sent = await reads.list(a, { status: 'sent', page: { limit: 10, after: null } });
    expect(sent.data.map((view: any) => view.id).sort()).toEqual(made.filter((quote) => quote.status === 'sent').map((quote) => quote.id).sort());
  });

  it("the contacts merge moves the contact's quotes of that account only and answers their ids in creation order", async () => {
    const a = asAccountId(newId());
    const from = newId();
    const to = newId();
    const older = await insert(a, { contactId: from, createdAt: new Date('2026-03-01T00:00:00.000Z') });
    const newer = await insert(a, { contactId: from, createdAt: new Date('2026-03-02T00:00:00.000Z') });
    const elsewhere = await insert(asAccountId(newId()), { contactId: from });
    expect(await reassignment.idsOf(a, from)).toEqual([older.id, newer.id]);
    const at = new Date('2026-06-01T00:00:00.000Z');
    expect(await transactions.run(() => reassignment.reassign(a, from, to, at))).toEqual([older.id, newer.id]);
    expect(await db.query(`SELECT id, contact_id, updated_at FROM quotes.quotes WHERE id = ANY($1) ORDER BY created_at`, [[older.id, newer.id]])).toEqual([
      { id: older.id, contact_id: to, updated_at: at },
      { id: newer.id, contact_id: to, updated_at: at },
    ]);
    expect((await db.query(`SELECT contact_id FROM quotes.quotes WHERE id = $1`, [elsewhere.id]))[0].contact_id).toBe(from);
    expect(await reassignment.reassign(a, 'not-a-uuid', to, at)).toEqual([]);
  });
});
