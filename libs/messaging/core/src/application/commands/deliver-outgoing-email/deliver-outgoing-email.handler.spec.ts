import { asAccountId, FixedClock, newId } from '@leadflow/shared-kernel';
import { InMemoryJournal, InMemoryUnitOfWork } from '@leadflow/shared-testing/fakes';
import { EmailDeliveryError } from '../../../domain/delivery-failure';
import { OutgoingEmailState, queuedEmail } from '../../../domain/outgoing-email';
import {
  InMemoryMessagingStore,
  InMemoryOutgoingEmailRepository,
  ScriptedEmailTransport,
} from '../../../testing/in-memory-messaging';
import { DeliverOutgoingEmailCommand } from './deliver-outgoing-email.command';
import { DeliverOutgoingEmailHandler, SENDING_LEASE_MS } from './deliver-outgoing-email.handler';

const ACCOUNT = asAccountId('9a3f1c2e-4b5d-4e6f-8a7b-0c1d2e3f4a5b');
const OTHER_ACCOUNT = asAccountId('1b2c3d4e-5f60-4718-9a0b-1c2d3e4f5a6b');
const start = new Date('2026-11-22T14:05:09.123Z');

describe('DeliverOutgoingEmailHandler (one delivery attempt of the worker)', () => {
  let store: InMemoryMessagingStore;
  let emails: InMemoryOutgoingEmailRepository;
  let transport: ScriptedEmailTransport;
  let clock: FixedClock;
  let handler: DeliverOutgoingEmailHandler;

  const queued = async (accountId = ACCOUNT): Promise<OutgoingEmailState> => {
    const email = queuedEmail(
      accountId,
      newId(),
      {
        to: 'nadia@example.com',
        from: null,
        replyTo: null,
        subject: 'Votre soumission',
        html: '<p>Bonjour</p>',
        type: 'transactional',
        priority: 1,
        isTest: false,
        contactId: null,
        source: null,
      },
      { email: 'bonjour@lavoie.test', name: 'Lavoie' },
      clock.now(),
    );
    await emails.insert(email);
    return email;
  };
  const deliver = (email: OutgoingEmailState, finalAttempt = false, accountId = email.accountId) =>
    handler.execute(new DeliverOutgoingEmailCommand(accountId, email.id, finalAttempt));
  const transitions = async (email: OutgoingEmailState) =>
    (await emails.history(email.accountId, email.id)).map((change) => `${change.from ?? '∅'}→${change.to}#${change.attempt}${change.error ? ` (${change.error})` : ''}`);

  beforeEach(() => {
    store = new InMemoryMessagingStore();
    emails = new InMemoryOutgoingEmailRepository(store);
    transport = new ScriptedEmailTransport();
    clock = new FixedClock(start);
    handler = new DeliverOutgoingEmailHandler(emails, transport, new InMemoryUnitOfWork(store), new InMemoryJournal(store), clock);
  });

  it('hands a queued email over once, marks it sent with the provider id and emits email_sent', async () => {
    const email = await queued();
    transport.answer({ providerMessageId: '<abc@smtp.test>' });
    clock.advance(1000);

    expect(await deliver(email)).toEqual({ result: 'sent', attempts: 1 });

    expect(transport.sent).toEqual([
      {
        emailId: email.id,
        accountId: email.accountId,
        from: { email: 'bonjour@lavoie.test', name: 'Lavoie' },
        to: 'nadia@example.com',
        replyTo: null,
        subject: 'Votre soumission',
        html: '<p>Bonjour</p>',
        messageId: `<${email.id}@lavoie.test>`,
      },
    ]);
    expect(await emails.find(ACCOUNT, email.id)).toMatchObject({
      status: 'sent',
      attempts: 1,
      providerMessageId: '<abc@smtp.test>',
      sentAt: clock.now(),
      lastError: null,
    });
    expect(await transitions(email)).toEqual(['∅→queued#0', 'queued→sending#1', 'sending→sent#1']);
    expect(store.events.map((event) => [event.type, event.payload.email_id, event.payload.status])).toEqual([['email_sent', email.id, 'sent']]);
  });

  it('does nothing when the job runs again for an email already sent (idempotent)', async () => {
    const email = await queued();
    await deliver(email);

    expect(await deliver(email)).toEqual({ result: 'skipped', status: 'sent' });

    expect(transport.sent).toHaveLength(1);
    expect(await transitions(email)).toEqual(['∅→queued#0', 'queued→sending#1', 'sending→sent#1']);
    expect(store.events).toHaveLength(1);
  });

  it('queues the email again after a transient failure (451), recording the error, and sends it on a later attempt', async () => {
    const email = await queued();
    transport.answer(new EmailDeliveryError('4.7.1 Greylisted, try again later', 451, 'EENVELOPE'), new EmailDeliveryError('connect ECONNREFUSED 127.0.0.1:2525', null, 'ESOCKET'));

    expect(await deliver(email)).toEqual({ result: 'retry', attempts: 1, error: '451 4.7.1 Greylisted, try again later' });
    expect(await emails.find(ACCOUNT, email.id)).toMatchObject({ status: 'queued', attempts: 1, lastError: '451 4.7.1 Greylisted, try again later' });
    expect(await deliver(email)).toEqual({ result: 'retry', attempts: 2, error: 'ESOCKET connect ECONNREFUSED 127.0.0.1:2525' });
    expect(await deliver(email)).toEqual({ result: 'sent', attempts: 3 });

    expect(await emails.find(ACCOUNT, email.id)).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(await transitions(email)).toEqual([
      '∅→queued#0',
      'queued→sending#1',
      'sending→queued#1 (451 4.7.1 Greylisted, try again later)',
      'queued→sending#2',
      'sending→queued#2 (ESOCKET connect ECONNREFUSED 127.0.0.1:2525)',
      'queued→sending#3',
      'sending→sent#3',
    ]);
    expect(store.events.map((event) => event.type)).toEqual(['email_sent']);
  });

  it('fails the email for good on a permanent failure (550) and emits email_failed', async () => {
    const email = await queued();
    transport.answer(new EmailDeliveryError('5.1.1 Mailbox unavailable', 550, 'EENVELOPE'));

    expect(await deliver(email)).toEqual({ result: 'failed', attempts: 1, error: '550 5.1.1 Mailbox unavailable', permanent: true });

    expect(await emails.find(ACCOUNT, email.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: '550 5.1.1 Mailbox unavailable', sentAt: null });
    expect(await deliver(email)).toEqual({ result: 'skipped', status: 'failed' });
    expect(transport.sent).toHaveLength(1);
    expect(store.events.map((event) => [event.type, event.payload.last_error])).toEqual([['email_failed', '550 5.1.1 Mailbox unavailable']]);
  });

  it('fails the email when a transient failure happens on the final attempt', async () => {
    const email = await queued();
    transport.answer(new EmailDeliveryError('4.3.0 Try later', 421, 'ECONNECTION'));

    expect(await deliver(email, true)).toEqual({ result: 'failed', attempts: 1, error: '421 4.3.0 Try later', permanent: false });
    expect((await emails.find(ACCOUNT, email.id))?.status).toBe('failed');
  });

  it('leaves an email another worker is sending alone, and takes it over once that claim is stale', async () => {
    const email = await queued();
    await emails.claim(ACCOUNT, email.id, clock.now(), new Date(0)); // another worker claimed it, then died

    expect(await deliver(email)).toEqual({ result: 'busy' });
    expect(transport.sent).toEqual([]);

    clock.advance(SENDING_LEASE_MS + 1);
    expect(await deliver(email)).toEqual({ result: 'sent', attempts: 2 });
    expect(await transitions(email)).toEqual(['∅→queued#0', 'queued→sending#1', 'sending→sending#2', 'sending→sent#2']);
  });

  it("never delivers another account's email, nor a missing one", async () => {
    const email = await queued(OTHER_ACCOUNT);

    expect(await deliver(email, false, ACCOUNT)).toEqual({ result: 'skipped', status: 'missing' });

    expect(transport.sent).toEqual([]);
    expect((await emails.find(OTHER_ACCOUNT, email.id))?.status).toBe('queued');
  });
});
