import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import {
  ListOutgoingEmailsQuery,
  OutgoingEmailRequest,
  ProvisionSendersCommand,
  QueueEmailCommand,
  QueuedEmail,
} from '@leadflow/messaging-contracts';
import { OutgoingEmailRepository } from '@leadflow/messaging-core';
import { AccountId, asAccountId, encodeCursor, FixedClock, newId } from '@leadflow/shared-kernel';
import { PlatformModule, TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { TypeOrmOutgoingEmailRepository } from '../src/infrastructure/persistence/typeorm-outgoing-email.repository';
import { MessagingHttpModule } from '../src/messaging-http.module';

/**
 * The outgoing-email path's write and read sides on real PostgreSQL: QueueEmailCommand in the caller's
 * transaction (row, status change and `email_queued` outbox row together), the default sender, the
 * claim that keeps one worker per email, and the published list query with tenant isolation.
 */
describe('Outgoing emails (messaging adapters on PostgreSQL)', () => {
  let services: TestServices;
  let context: INestApplicationContext;
  let commands: CommandBus;
  let queries: QueryBus;
  let transactions: TransactionHost;
  let emails: OutgoingEmailRepository;
  let db: DataSource;
  const clock = new FixedClock(new Date('2026-11-22T14:00:00.000Z'));
  const A = asAccountId(newId());
  const B = asAccountId(newId());
  const WITHOUT_SENDER = asAccountId(newId());

  const request = (overrides: Partial<OutgoingEmailRequest> = {}): OutgoingEmailRequest => ({
    to: 'Nadia.Belanger@example.com',
    subject: 'Votre soumission 2026-0001',
    html: '<p>Bonjour <strong>Nadia</strong></p><script>alert(1)</script>',
    type: 'quote',
    priority: 2,
    ...overrides,
  });
  const queue = (accountId: AccountId, overrides: Partial<OutgoingEmailRequest> = {}): Promise<QueuedEmail> =>
    commands.execute(new QueueEmailCommand(accountId, request(overrides)));
  const rows = (sql: string, params: unknown[]) => db.query(sql, params);
  const outboxOf = (emailId: string) =>
    rows(`SELECT type, account_id, payload FROM platform.outbox WHERE payload->>'email_id' = $1 ORDER BY sequence`, [emailId]);

  beforeAll(async () => {
    services = await createTestServices();
    @Module({ imports: [PlatformModule.forRoot({ config: services.config(), clock }), MessagingHttpModule] })
    class ApiSideOfMessaging {}
    context = await NestFactory.createApplicationContext(ApiSideOfMessaging, { logger: false, abortOnError: false });
    await context.init();
    commands = context.get(CommandBus);
    queries = context.get(QueryBus);
    transactions = context.get(TransactionHost);
    emails = context.get(OutgoingEmailRepository);
    db = context.get(DataSource);
    for (const [accountId, email] of [
      [A, 'bonjour@lavoie.test'],
      [B, 'info@bergeron.test'],
    ] as const) {
      await transactions.run(() => commands.execute(new ProvisionSendersCommand(accountId, [{ email, name: 'Ventes', isDefault: true }])));
    }
  });

  afterAll(async () => {
    await context?.close();
    await services.dispose();
  });

  it('writes nothing (row, status change, outbox event) for an email queued in a transaction that rolls back', async () => {
    let queued: QueuedEmail | undefined;
    await expect(
      transactions.run(async () => {
        queued = await queue(A);
        throw new Error('the quote send failed after queuing');
      }),
    ).rejects.toThrow('the quote send failed after queuing');

    expect(queued?.status).toBe('queued');
    expect(await rows(`SELECT id FROM messaging.outgoing_emails WHERE id = $1`, [queued!.id])).toEqual([]);
    expect(await rows(`SELECT id FROM messaging.outgoing_email_status_changes WHERE email_id = $1`, [queued!.id])).toEqual([]);
    expect(await outboxOf(queued!.id)).toEqual([]);
  });

  it("commits a queued row (HTML sanitised, default sender), its status change and one email_queued outbox row with the caller's transaction", async () => {
    const contactId = newId();
    const queued = await transactions.run(() => queue(A, { contactId, source: { kind: 'quote', id: 'q-2026-0001' } }));

    expect(queued).toEqual({
      id: expect.any(String),
      status: 'queued',
      from: { email: 'bonjour@lavoie.test', name: 'Ventes' },
      threadId: expect.any(String),
      to: 'nadia.belanger@example.com',
      subject: 'Votre soumission 2026-0001',
      createdAt: clock.now().toISOString(),
    });
    expect(await rows(`SELECT * FROM messaging.outgoing_emails WHERE id = $1`, [queued.id])).toEqual([
      {
        id: queued.id,
        account_id: A,
        to: 'nadia.belanger@example.com',
        from_email: 'bonjour@lavoie.test',
        from_name: 'Ventes',
        reply_to: null,
        subject: 'Votre soumission 2026-0001',
        html: '<p>Bonjour <strong>Nadia</strong></p>',
        type: 'quote',
        priority: 2,
        is_test: false,
        contact_id: contactId,
        source: { kind: 'quote', id: 'q-2026-0001' },
        thread_id: queued.threadId,
        status: 'queued',
        attempts: 0,
        last_error: null,
        provider_message_id: null,
        created_at: clock.now(),
        sent_at: null,
        updated_at: clock.now(),
      },
    ]);
    expect(await emails.history(A, queued.id)).toEqual([{ emailId: queued.id, from: null, to: 'queued', attempt: 0, error: null, at: clock.now() }]);
    expect(await outboxOf(queued.id)).toEqual([
      {
        type: 'email_queued',
        account_id: A,
        payload: { email_id: queued.id, type: 'quote', priority: 2, is_test: false, contact_id: contactId, source: { kind: 'quote', id: 'q-2026-0001' } },
      },
    ]);
  });

  it('refuses with 400 no_sender_configured when the account has no default sender, and writes nothing', async () => {
    const before = await rows(`SELECT count(*)::int AS n FROM messaging.outgoing_emails`, []);

    await expect(queue(WITHOUT_SENDER)).rejects.toMatchObject({ code: 'no_sender_configured', details: null });

    expect(await rows(`SELECT count(*)::int AS n FROM messaging.outgoing_emails`, [])).toEqual(before);
    expect(await rows(`SELECT count(*)::int AS n FROM platform.outbox WHERE account_id = $1`, [WITHOUT_SENDER])).toEqual([{ n: 0 }]);
  });

  it('lets one claim win when two workers claim the same email at once, and never claims a sent email again', async () => {
    const { id } = await queue(A);
    const otherDb = new DataSource({ ...db.options } as ConstructorParameters<typeof DataSource>[0]);
    await otherDb.initialize();
    const otherTransactions = new TransactionHost(otherDb);
    const otherRepository = new TypeOrmOutgoingEmailRepository(otherTransactions); // a second worker process
    try {
      const now = clock.now();
      const stale = new Date(now.getTime() - 60_000);
      const claims = await Promise.all([
        transactions.run(() => emails.claim(A, id, now, stale)),
        otherTransactions.run(() => otherRepository.claim(A, id, now, stale)),
      ]);

      expect(claims.filter((claim) => claim !== null).map((claim) => [claim!.status, claim!.attempts])).toEqual([['sending', 1]]);
      await transactions.run(() => emails.settle(A, id, 1, { status: 'sent', providerMessageId: '<x@smtp.test>', at: now }));
      expect(await transactions.run(() => emails.claim(A, id, now, new Date(now.getTime() + 3_600_000)))).toBeNull();
      expect(await emails.find(A, id)).toMatchObject({ status: 'sent', attempts: 1, providerMessageId: '<x@smtp.test>', sentAt: now });
      expect((await emails.history(A, id)).map((change) => `${change.from}→${change.to}#${change.attempt}`)).toEqual([
        'null→queued#0',
        'queued→sending#1',
        'sending→sent#1',
      ]);
    } finally {
      await otherDb.destroy();
    }
  });

  it("never claims, settles or finds another account's email", async () => {
    const { id } = await queue(B);
    const now = clock.now();

    expect(await transactions.run(() => emails.claim(A, id, now, now))).toBeNull();
    expect(await transactions.run(() => emails.settle(A, id, 0, { status: 'failed', error: 'x', at: now }))).toBeNull();
    expect(await emails.find(A, id)).toBeNull();
    expect((await emails.find(B, id))?.status).toBe('queued');
  });

  it('ListOutgoingEmailsQuery lists the account’s emails newest first with a cursor, and never another account’s', async () => {
    const C = asAccountId(newId());
    await transactions.run(() => commands.execute(new ProvisionSendersCommand(C, [{ email: 'c@c.test', name: 'C' }])));
    const other = asAccountId(newId());
    await transactions.run(() => commands.execute(new ProvisionSendersCommand(other, [{ email: 'o@o.test', name: 'O' }])));
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      clock.advance(1000);
      ids.push((await queue(C, { subject: `Courriel ${index}`, isTest: index === 2, type: index === 0 ? 'transactional' : 'quote', priority: index + 1 })).id);
      await queue(other, { subject: `Autre ${index}` });
    }

    const first = await queries.execute(new ListOutgoingEmailsQuery(C, { limit: 2, after: null }));

    expect(first.data).toEqual([
      {
        id: ids[2],
        to: 'nadia.belanger@example.com',
        subject: '[TEST] Courriel 2',
        status: 'queued',
        type: 'quote',
        priority: 3,
        isTest: true,
        createdAt: '2026-11-22T14:00:03.000Z',
      },
      expect.objectContaining({ id: ids[1], subject: 'Courriel 1', isTest: false, createdAt: '2026-11-22T14:00:02.000Z' }),
    ]);
    expect(first.pagination).toEqual({
      next_cursor: encodeCursor({ createdAt: new Date('2026-11-22T14:00:02.000Z'), id: ids[1] }),
      has_more: true,
      limit: 2,
      total_count: 3,
    });
    const second = await queries.execute(new ListOutgoingEmailsQuery(C, { limit: 2, after: { createdAt: new Date('2026-11-22T14:00:02.000Z'), id: ids[1] } }));
    expect(second.data.map((email) => email.id)).toEqual([ids[0]]);
    expect(second.pagination).toMatchObject({ next_cursor: null, has_more: false, total_count: 3 });
  });

  it('makes one email thread of concurrent first emails to one address (race-safe upsert), counting both, and keeps threads per account', async () => {
    const address = `fil-${newId()}@example.com`;

    const queued = await Promise.all([queue(A, { to: address, subject: 'Un' }), queue(A, { to: address.toUpperCase(), subject: 'Deux' }), queue(B, { to: address })]);

    expect(queued[0].threadId).toBe(queued[1].threadId);
    expect(queued[2].threadId).not.toBe(queued[0].threadId);
    const threads = await rows(`SELECT account_id, message_count, participants FROM messaging.email_threads WHERE address = $1 ORDER BY message_count DESC`, [address]);
    expect(threads).toEqual([
      { account_id: A, message_count: 2, participants: [address, 'bonjour@lavoie.test'] },
      { account_id: B, message_count: 1, participants: [address, 'info@bergeron.test'] },
    ]);
    expect(await rows(`SELECT DISTINCT thread_id FROM messaging.outgoing_emails WHERE account_id = $1 AND "to" = $2`, [A, address])).toEqual([
      { thread_id: queued[0].threadId },
    ]);
  });

  it('serialises test sends per account: concurrent test emails never exceed the 50 of the rolling 24 hours', async () => {
    const account = asAccountId(newId());
    await transactions.run(() => commands.execute(new ProvisionSendersCommand(account, [{ email: 'test@lavoie.test', name: 'Essais', isDefault: true }])));
    for (let i = 0; i < 45; i += 1) await queue(account, { isTest: true, type: 'test', priority: 1 });

    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => queue(account, { isTest: true, type: 'test', priority: 1 }).then(() => 'queued', (error: { code?: string }) => error.code)),
    );

    expect(outcomes.filter((outcome) => outcome === 'queued')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === 'test_quota_exceeded')).toHaveLength(5);
    expect(await rows(`SELECT count(*)::int AS n FROM messaging.outgoing_emails WHERE account_id = $1 AND is_test`, [account])).toEqual([{ n: 50 }]);
    expect(await rows(`SELECT count(*)::int AS n FROM messaging.email_threads WHERE account_id = $1`, [account])).toEqual([{ n: 0 }]);
  });
});
