import { getQueueToken } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { EMAIL_DELIVERY_ATTEMPTS, EMAIL_DELIVERY_QUEUE } from '@leadflow/messaging-adapters';
import { OutgoingEmailRequest, ProvisionSendersCommand, QueueEmailCommand, QueuedEmail } from '@leadflow/messaging-contracts';
import { asAccountId, newId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { createTestServices, SmtpSink, TestServices } from '@leadflow/shared-testing';
import { createWorker } from '../src/bootstrap';

/**
 * The outgoing-email path through the real worker (createWorker: outbox relay, fan-out, the messaging
 * consumer and the delivery processor) on real PostgreSQL and Redis, delivering to a real SMTP server
 * (smtp-server on a random loopback port). Operator-api › Runtime contract `SMTP_URL`; issue 6 › Emails.
 */

const ACCOUNT = asAccountId(newId());
const SENDER = { email: 'bonjour@lavoie.test', name: 'Rénovations Lavoie & Fils' };

interface EmailRow {
  status: string;
  attempts: number;
  last_error: string | null;
  provider_message_id: string | null;
  sent_at: Date | null;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The worker with its command bus and database, booted on one test database. */
async function bootWorker(services: TestServices, env: Record<string, string | undefined>) {
  const worker = await createWorker(services.config({ OUTBOX_RELAY_INTERVAL_MS: '20', EMAIL_RETRY_DELAY_MS: '50', ...env }));
  const commands = worker.get(CommandBus);
  const transactions = worker.get(TransactionHost);
  const db = worker.get(DataSource);
  await transactions.run(() => commands.execute(new ProvisionSendersCommand(ACCOUNT, [{ ...SENDER, isDefault: true }])));
  const queue = (overrides: Partial<OutgoingEmailRequest> = {}): Promise<QueuedEmail> =>
    transactions.run(() =>
      commands.execute(
        new QueueEmailCommand(ACCOUNT, {
          to: 'nadia.belanger@example.com',
          subject: 'Votre soumission 2026-0001',
          html: '<p>Bonjour <strong>Nadia</strong>,</p><p>Voici votre soumission.</p>',
          type: 'quote',
          priority: 2,
          ...overrides,
        }),
      ),
    );
  const email = async (id: string): Promise<EmailRow | undefined> =>
    (
      await db.query(`SELECT status, attempts, last_error, provider_message_id, sent_at FROM messaging.outgoing_emails WHERE account_id = $1 AND id = $2`, [
        ACCOUNT,
        id,
      ])
    )[0];
  const settled = (id: string, status: 'sent' | 'failed', timeoutMs?: number) =>
    waitFor(() => email(id), (row) => row?.status === status, `email ${id} ${status}`, timeoutMs);
  const history = async (id: string): Promise<string[]> =>
    (
      await db.query(
        `SELECT from_status, to_status, attempt, error FROM messaging.outgoing_email_status_changes WHERE account_id = $1 AND email_id = $2 ORDER BY sequence`,
        [ACCOUNT, id],
      )
    ).map((change: { from_status: string | null; to_status: string; attempt: number; error: string | null }) =>
      `${change.from_status ?? '∅'}→${change.to_status}#${change.attempt}${change.error ? ` (${change.error})` : ''}`,
    );
  const events = async (id: string): Promise<string[]> =>
    (await db.query(`SELECT type FROM platform.outbox WHERE payload->>'email_id' = $1 ORDER BY sequence`, [id])).map((row: { type: string }) => row.type);
  return { worker, db, queue, email, settled, history, events };
}

describe('Outgoing emails through the worker, SMTP_URL set (real SMTP server)', () => {
  let services: TestServices;
  let sink: SmtpSink;
  let harness: Awaited<ReturnType<typeof bootWorker>>;
  let deliveries: Queue;
  const delivered = (emailId: string) => sink.withHeader('X-Leadflow-Email-Id', emailId);
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    services = await createTestServices();
    sink = await SmtpSink.start();
    harness = await bootWorker(services, { SMTP_URL: sink.url });
    deliveries = harness.worker.get<Queue>(getQueueToken(EMAIL_DELIVERY_QUEUE));
  });

  afterAll(async () => {
    await harness?.worker.close();
    await sink?.stop();
    await services.dispose();
  });

  it('delivers a committed email once, with its sender, recipient, subject and sanitised HTML (a <script> removed)', async () => {
    const { id } = await harness.queue({ html: '<p>Bonjour <strong>Nadia</strong></p><script>alert(document.cookie)</script><a href="javascript:x()">lien</a>' });

    const row = await harness.settled(id, 'sent');
    await pause(300); // nothing else arrives

    expect(delivered(id)).toHaveLength(1);
    const [message] = delivered(id);
    expect(message.mailFrom).toBe('bonjour@lavoie.test');
    expect(message.recipients).toEqual(['nadia.belanger@example.com']);
    expect(message.headers.from).toBe('Rénovations Lavoie & Fils <bonjour@lavoie.test>'); // an encoded word, decoded
    expect(message.headers.to).toBe('nadia.belanger@example.com');
    expect(message.headers.subject).toBe('Votre soumission 2026-0001');
    expect(message.headers['message-id']).toBe(`<${id}@lavoie.test>`);
    expect(message.headers['content-type']).toMatch(/^text\/html/);
    expect(message.body).toBe('<p>Bonjour <strong>Nadia</strong></p><a>lien</a>');
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null, provider_message_id: `<${id}@lavoie.test>` });
    expect(row?.sent_at).toBeInstanceOf(Date);
    expect(await harness.history(id)).toEqual(['∅→queued#0', 'queued→sending#1', 'sending→sent#1']);
    expect(await harness.events(id)).toEqual(['email_queued', 'email_sent']);
  });

  it('never sends an email queued in a transaction that rolls back', async () => {
    const subject = `Annulé ${newId()}`;
    let rolledBack: QueuedEmail | undefined;
    await expect(
      harness.worker.get(TransactionHost).run(async () => {
        rolledBack = await harness.queue({ subject });
        throw new Error('the booking could not be saved');
      }),
    ).rejects.toThrow('the booking could not be saved');
    // Queued after it: once this one is delivered, the relay has passed the rolled-back one's place.
    const { id: later } = await harness.queue({ subject: 'Rappel de rendez-vous', type: 'booking_notification', priority: 1 });

    await harness.settled(later, 'sent');
    await pause(200);

    expect(delivered(later)).toHaveLength(1);
    expect(delivered(rolledBack!.id)).toEqual([]);
    expect(sink.received.filter((message) => message.headers.subject === subject)).toEqual([]);
    expect(await harness.email(rolledBack!.id)).toBeUndefined();
    expect(await harness.events(rolledBack!.id)).toEqual([]);
  });

  it('retries a transient refusal: 451 twice, then accepted; sent after three attempts, each one recorded', async () => {
    const to = `greylisted-${newId()}@example.com`;
    sink.refuse(to, 451, '4.7.1 Greylisted, please try again later', 2);

    const { id } = await harness.queue({ to });
    const row = await harness.settled(id, 'sent');

    expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(sink.attemptsFor(to)).toBe(3);
    expect(delivered(id)).toHaveLength(1);
    expect(await harness.history(id)).toEqual([
      '∅→queued#0',
      'queued→sending#1',
      'sending→queued#1 (451 4.7.1 Greylisted, please try again later)',
      'queued→sending#2',
      'sending→queued#2 (451 4.7.1 Greylisted, please try again later)',
      'queued→sending#3',
      'sending→sent#3',
    ]);
    const job = await deliveries.getJob(id);
    expect(await job?.getState()).toBe('completed');
    expect(job?.attemptsMade).toBe(3); // BullMQ counts the successful run too
    expect(job?.opts).toMatchObject({ priority: 2, attempts: 8, backoff: { type: 'exponential', delay: 50 } });
  });

  it('fails the email for good on a permanent refusal (550), recording last_error, without retrying', async () => {
    const to = `nobody-${newId()}@example.com`;
    sink.refuse(to, 550, '5.1.1 Mailbox unavailable');

    const { id } = await harness.queue({ to });
    const row = await harness.settled(id, 'failed');
    await pause(500); // a retry would have come after 50 ms

    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: '550 5.1.1 Mailbox unavailable', sent_at: null });
    expect(sink.attemptsFor(to)).toBe(1);
    expect(delivered(id)).toEqual([]);
    expect(await harness.history(id)).toEqual(['∅→queued#0', 'queued→sending#1', 'sending→failed#1 (550 5.1.1 Mailbox unavailable)']);
    expect(await harness.events(id)).toEqual(['email_queued', 'email_failed']);
    const job = await deliveries.getJob(id);
    expect(await job?.getState()).toBe('failed');
    expect(job?.attemptsMade).toBe(1);
  });

  it('fails the email when transient refusals outlast the 8 attempts (exponential backoff), keeping the last error', async () => {
    const to = `always-busy-${newId()}@example.com`;
    sink.refuse(to, 450, '4.2.1 Mailbox busy');

    const { id } = await harness.queue({ to });
    const row = await harness.settled(id, 'failed', 20_000); // backoff 50 ms × (1 + 2 + … + 64), less jitter

    expect(row).toMatchObject({ status: 'failed', attempts: EMAIL_DELIVERY_ATTEMPTS, last_error: '450 4.2.1 Mailbox busy' });
    expect(sink.attemptsFor(to)).toBe(EMAIL_DELIVERY_ATTEMPTS);
    const changes = await harness.history(id);
    expect(changes.filter((change) => change.startsWith('sending→queued'))).toHaveLength(EMAIL_DELIVERY_ATTEMPTS - 1);
    expect(changes[changes.length - 1]).toBe(`sending→failed#${EMAIL_DELIVERY_ATTEMPTS} (450 4.2.1 Mailbox busy)`);
    expect(await harness.events(id)).toEqual(['email_queued', 'email_failed']);
  }, 30_000);

  it('retries while the SMTP server refuses connections, and sends once it is back', async () => {
    await sink.stop();
    try {
      const { id } = await harness.queue({ subject: 'Serveur revenu' });
      await waitFor(() => harness.history(id), (changes) => changes.some((change) => change.includes('ECONNREFUSED')), 'a refused connection recorded');
      expect((await harness.email(id))?.status).not.toBe('sent');
    } finally {
      await sink.start();
    }
    const [row] = await harness.db.query(`SELECT id FROM messaging.outgoing_emails WHERE subject = 'Serveur revenu'`);
    const sent = await harness.settled(row.id, 'sent');

    expect(sent?.attempts).toBeGreaterThanOrEqual(2);
    expect(delivered(row.id)).toHaveLength(1);
    expect((await harness.history(row.id)).filter((change) => change.startsWith('sending→queued'))).not.toEqual([]);
  });

  it('does nothing when a delivery job runs again for an email already sent', async () => {
    const { id } = await harness.queue({ subject: 'Une seule fois' });
    await harness.settled(id, 'sent');
    const before = await harness.history(id);

    const again = await deliveries.add('deliver-email', { accountId: ACCOUNT, emailId: id }, { jobId: `${id}-again` });
    await waitFor(() => again.getState(), (state) => state === 'completed', 'the repeated job');
    await deliveries.add('deliver-email', { accountId: ACCOUNT, emailId: id }, { jobId: id }); // same id as the first: not added again
    await pause(200);

    expect((await deliveries.getJob(`${id}-again`))?.returnvalue).toEqual({ result: 'skipped', status: 'sent' });
    expect(delivered(id)).toHaveLength(1);
    expect(await harness.history(id)).toEqual(before);
    expect(await harness.events(id)).toEqual(['email_queued', 'email_sent']);
  });
});

describe('Outgoing emails through the worker, SMTP_URL unset (logging transport)', () => {
  let services: TestServices;
  let harness: Awaited<ReturnType<typeof bootWorker>>;
  let logged: jest.SpyInstance;

  beforeAll(async () => {
    services = await createTestServices();
    logged = jest.spyOn(Logger.prototype, 'log');
    harness = await bootWorker(services, { SMTP_URL: undefined });
  });

  afterAll(async () => {
    logged.mockRestore();
    await harness?.worker.close();
    await services.dispose();
  });

  it('records the email in the JSON logs and marks it sent: never lost', async () => {
    const { id } = await harness.queue({ subject: 'Sans SMTP', html: '<p>Bonjour</p><script>x()</script>' });

    const row = await harness.settled(id, 'sent');

    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null, provider_message_id: `<${id}@lavoie.test>` });
    expect(await harness.history(id)).toEqual(['∅→queued#0', 'queued→sending#1', 'sending→sent#1']);
    expect(await harness.events(id)).toEqual(['email_queued', 'email_sent']);
    const entry = logged.mock.calls.find(([message]) => (message as { emailId?: string })?.emailId === id);
    expect(entry?.[0]).toMatchObject({
      emailId: id,
      transport: 'logging',
      email: {
        from: { address: 'bonjour@lavoie.test', name: 'Rénovations Lavoie & Fils' },
        to: [{ address: 'nadia.belanger@example.com', name: '' }],
        subject: 'Sans SMTP',
        html: '<p>Bonjour</p>',
        messageId: `<${id}@lavoie.test>`,
      },
    });
    expect(entry?.[1]).toBe('Email recorded by the logging transport (SMTP_URL is not set)');
  });
});
