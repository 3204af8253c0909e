import { asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { OutgoingEmailRequest, QueueEmailCommand } from '@leadflow/messaging-contracts';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { InvalidOutgoingEmailError, NoSenderConfiguredError, TestQuotaExceededError } from '../../../domain/messaging.errors';
import {
  InMemoryEmailThreadRepository,
  InMemoryMessagingStore,
  InMemoryOutgoingEmailRepository,
  InMemorySenderRepository,
  InMemoryTestSendLedger,
} from '../../../testing/in-memory-messaging';
import { QueueEmailHandler } from './queue-email.handler';

const ACCOUNT = asAccountId('9a3f1c2e-4b5d-4e6f-8a7b-0c1d2e3f4a5b');
const OTHER_ACCOUNT = asAccountId('1b2c3d4e-5f60-4718-9a0b-1c2d3e4f5a6b');
const now = new Date('2026-11-22T14:05:09.123Z');

const request = (overrides: Partial<OutgoingEmailRequest> = {}): OutgoingEmailRequest => ({
  to: 'Nadia.Belanger@Example.com',
  subject: 'Votre soumission',
  html: '<p>Bonjour <strong>Nadia</strong></p>',
  type: 'transactional',
  priority: 1,
  ...overrides,
});

describe('QueueEmailHandler (QueueEmailCommand: the outgoing-email path)', () => {
  let store: InMemoryMessagingStore;
  let unitOfWork: InMemoryUnitOfWork;
  let handler: QueueEmailHandler;

  const addSender = (accountId: string, email: string, name: string, isDefault: boolean) =>
    store.senders.push({ id: newId(), accountId, email, name, isDefault, createdAt: now });
  const queue = (overrides: Partial<OutgoingEmailRequest> = {}, accountId = ACCOUNT) =>
    handler.execute(new QueueEmailCommand(accountId, request(overrides)));
  const refusal = async (work: Promise<unknown>) => work.then(() => null, (error: unknown) => error);

  let clock: FixedClock;

  beforeEach(() => {
    clock = new FixedClock(now);
    store = new InMemoryMessagingStore();
    unitOfWork = new InMemoryUnitOfWork(store);
    handler = new QueueEmailHandler(
      new InMemoryOutgoingEmailRepository(store),
      new InMemorySenderRepository(store),
      unitOfWork,
      new InMemoryJournal(store),
      clock,
      new InMemoryEmailThreadRepository(store),
      new InMemoryTestSendLedger(store),
    );
  });

  it("sends from the account's default sender when no from is given", async () => {
    addSender(ACCOUNT, 'info@lavoie.test', 'Info', false);
    addSender(ACCOUNT, 'bonjour@lavoie.test', 'Rénovations Lavoie', true);

    const queued = await queue();

    expect(queued).toEqual({
      id: expect.any(String),
      status: 'queued',
      from: { email: 'bonjour@lavoie.test', name: 'Rénovations Lavoie' },
      threadId: expect.any(String),
      to: 'nadia.belanger@example.com',
      subject: 'Votre soumission',
      createdAt: now.toISOString(),
    });
    expect(store.emails[0]).toMatchObject({ fromEmail: 'bonjour@lavoie.test', fromName: 'Rénovations Lavoie' });
  });

  it('uses the from of the request when one is given (a sales rep), lowercased', async () => {
    const queued = await queue({ from: { email: 'Julie@Lavoie.TEST', name: 'Julie Roy' }, replyTo: 'Julie@Lavoie.test' });

    expect(queued.from).toEqual({ email: 'julie@lavoie.test', name: 'Julie Roy' });
    expect(store.emails[0]).toMatchObject({ fromEmail: 'julie@lavoie.test', fromName: 'Julie Roy', replyTo: 'julie@lavoie.test' });
  });

  it('refuses with 400 no_sender_configured when no from is given and the account has no default sender, writing nothing', async () => {
    addSender(OTHER_ACCOUNT, 'bonjour@autre.test', 'Autre compte', true); // another account's default never serves

    const error = await refusal(queue());

    expect(error).toBeInstanceOf(NoSenderConfiguredError);
    expect(error).toMatchObject({ code: 'no_sender_configured', details: null });
    expect(store.emails).toEqual([]);
    expect(store.events).toEqual([]);
  });

  it('writes the queued row, its status change and an email_queued outbox event together', async () => {
    addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);
    const contactId = newId();

    const queued = await queue({ type: 'quote', priority: 2, contactId, source: { kind: 'quote', id: 'q-1' } });

    expect(store.emails).toEqual([
      {
        id: queued.id,
        accountId: ACCOUNT,
        to: 'nadia.belanger@example.com',
        fromEmail: 'bonjour@lavoie.test',
        fromName: 'Lavoie',
        replyTo: null,
        subject: 'Votre soumission',
        html: '<p>Bonjour <strong>Nadia</strong></p>',
        type: 'quote',
        priority: 2,
        isTest: false,
        contactId,
        source: { kind: 'quote', id: 'q-1' },
        threadId: queued.threadId,
        status: 'queued',
        attempts: 0,
        lastError: null,
        providerMessageId: null,
        createdAt: now,
        sentAt: null,
        updatedAt: now,
      },
    ]);
    expect(store.changes).toEqual([{ accountId: ACCOUNT, emailId: queued.id, from: null, to: 'queued', attempt: 0, error: null, at: now }]);
    expect(store.events).toEqual([
      {
        id: expect.any(String),
        type: 'email_queued',
        accountId: ACCOUNT,
        occurredAt: now,
        payload: { email_id: queued.id, type: 'quote', priority: 2, is_test: false, contact_id: contactId, source: { kind: 'quote', id: 'q-1' } },
        actor: { type: null, id: null, name: null, via: null },
      },
    ]);
  });

  it("joins the caller's unit of work: a rollback of the caller leaves neither the email nor its event", async () => {
    addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);

    const error = await refusal(
      unitOfWork.run(async () => {
        await queue();
        throw new Error('the quote could not be sent');
      }),
    );

    expect(error).toEqual(new Error('the quote could not be sent'));
    expect(store.emails).toEqual([]);
    expect(store.changes).toEqual([]);
    expect(store.events).toEqual([]);
  });

  it('stores the HTML sanitised (a <script> is removed)', async () => {
    addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);

    await queue({ html: '<p>Bonjour<script>alert(1)</script></p><img src="http://x.test/a.png">' });

    expect(store.emails[0].html).toBe('<p>Bonjour</p>');
  });

  it('prefixes the subject of a test send with [TEST] once', async () => {
    addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);

    await queue({ isTest: true, subject: 'Bienvenue' });
    await queue({ isTest: true, subject: '[TEST] Déjà marqué' });

    expect(store.emails.map((email) => [email.subject, email.isTest])).toEqual([
      ['[TEST] Bienvenue', true],
      ['[TEST] Déjà marqué', true],
    ]);
  });

  it('refuses an invalid request with 400 validation_error listing every breach, before looking for a sender', async () => {
    const error = await refusal(
      queue({
        to: 'not-an-email',
        subject: ' \r\n ',
        html: undefined as unknown as string,
        type: 'newsletter' as never,
        priority: 0,
        from: { email: 'nope', name: null },
        replyTo: 'also nope',
        contactId: '42',
        source: { kind: '', id: 'x' },
      }),
    );

    expect(error).toBeInstanceOf(InvalidOutgoingEmailError);
    expect((error as InvalidOutgoingEmailError).code).toBe('validation_error');
    expect((error as InvalidOutgoingEmailError).details).toEqual([
      { field: 'to', reason: 'invalid_format', message: expect.any(String) },
      { field: 'subject', reason: 'required', message: expect.any(String) },
      { field: 'html', reason: 'required', message: expect.any(String) },
      { field: 'type', reason: 'invalid_value', message: expect.any(String) },
      { field: 'priority', reason: 'out_of_range', message: expect.any(String) },
      { field: 'from.email', reason: 'invalid_format', message: expect.any(String) },
      { field: 'reply_to', reason: 'invalid_format', message: expect.any(String) },
      { field: 'contact_id', reason: 'invalid_format', message: expect.any(String) },
      { field: 'source', reason: 'invalid_value', message: expect.any(String) },
    ]);
    expect(store.emails).toEqual([]);
  });

  it('folds line breaks of the subject into spaces (no header injection)', async () => {
    addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);

    await queue({ subject: 'Soumission\r\nBcc: victim@example.com' });

    expect(store.emails[0].subject).toBe('Soumission Bcc: victim@example.com');
  });

  describe('test quota (50 test sends per rolling 24 hours, shared by every test send)', () => {
    it('refuses the 51st test send of the rolling 24 hours with 429 test_quota_exceeded, its details and Retry-After, writing nothing', async () => {
      addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);
      for (let i = 0; i < 50; i += 1) {
        await queue({ isTest: true });
        clock.advance(60_000);
      }
      const before = store.emails.length;

      const error = (await refusal(queue({ isTest: true }))) as TestQuotaExceededError;

      expect(error).toBeInstanceOf(TestQuotaExceededError);
      expect(error.code).toBe('test_quota_exceeded');
      // The oldest test send (at `now`) leaves the window 24 h after it; 50 minutes have passed.
      const retryAfter = 24 * 3600 - 50 * 60;
      expect(error.details).toEqual({ limit: 50, used: 50, window_seconds: 86400, retry_after_seconds: retryAfter });
      expect(error.options.headers).toEqual({ 'Retry-After': String(retryAfter) });
      expect(store.emails).toHaveLength(before);
    });

    it('frees a slot once the oldest test send is more than 24 hours old, and never counts real sends or other accounts', async () => {
      addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);
      addSender(OTHER_ACCOUNT, 'info@bergeron.test', 'Bergeron', true);
      for (let i = 0; i < 50; i += 1) await queue({ isTest: true });
      await queue({ isTest: true }, OTHER_ACCOUNT);
      await queue();
      expect(await refusal(queue({ isTest: true }))).toBeInstanceOf(TestQuotaExceededError);

      clock.advance(24 * 3600 * 1000 + 1);

      await expect(queue({ isTest: true })).resolves.toMatchObject({ status: 'queued' });
    });
  });

  describe('email threads', () => {
    it('puts every non-test email to one address in one thread (subject of the latest, message count, participants)', async () => {
      addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);

      const first = await queue({ subject: 'Premier' });
      clock.advance(1000);
      const second = await queue({ to: 'NADIA.belanger@example.com', subject: 'Second', from: { email: 'julie@lavoie.test', name: 'Julie' } });

      expect(second.threadId).toBe(first.threadId);
      expect(store.threads).toEqual([
        expect.objectContaining({
          address: 'nadia.belanger@example.com',
          subject: 'Second',
          messageCount: 2,
          participants: ['nadia.belanger@example.com', 'bonjour@lavoie.test', 'julie@lavoie.test'],
          lastMessageAt: new Date(now.getTime() + 1000),
          createdAt: now,
        }),
      ]);
    });

    it('creates no thread for a test email', async () => {
      addSender(ACCOUNT, 'bonjour@lavoie.test', 'Lavoie', true);

      const queued = await queue({ isTest: true });

      expect(queued.threadId).toBeNull();
      expect(store.threads).toEqual([]);
    });
  });
});
