import type { INestApplicationContext } from '@nestjs/common';
import { SmtpSink } from '@leadflow/shared-testing';
// The real worker app, booted beside the api on the same test services (the app's entry point runs main()).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorker } from '../../worker/src/bootstrap';
import { ACTIVE_MEMBER, DEFAULT_SENDER, messagingBlueprint, sendEmail } from './support/messaging-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows are asserted field by field */

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * `POST /v1/emails/send` end to end: the api queues, the real worker (outbox relay, messaging consumer,
 * delivery processor) hands the email to a real SMTP server (smtp-server, SMTP_URL) and records `sent`.
 */
describe('POST /v1/emails/send delivered through the worker to SMTP_URL', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let sink: SmtpSink;
  let account: ProvisionedAccount;
  let sql: ReturnType<typeof sqlOf>;

  const statusOf = async (id: string) =>
    (await sql.query<any>(`SELECT status, attempts FROM messaging.outgoing_emails WHERE account_id = $1 AND id = $2`, [account.account_id, id]))[0];

  beforeAll(async () => {
    sink = await SmtpSink.start();
    api = await TestApi.start();
    worker = await createWorker(api.services.config({ SMTP_URL: sink.url, OUTBOX_RELAY_INTERVAL_MS: '20', EMAIL_RETRY_DELAY_MS: '50' }));
    sql = sqlOf(api);
    account = await api.provision(messagingBlueprint());
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await sink?.stop();
  });

  it('delivers a real send from the default sender with the sanitised HTML and records it sent', async () => {
    const response = await sendEmail(api, account.api_keys.full.key, {
      to: 'nadia.belanger@example.com',
      subject: 'Votre projet',
      body: '<p>Bonjour</p><script>alert(1)</script>',
    });
    expect(response.status).toBe(201);
    const id = response.body.data.id;

    const row = await waitFor(() => statusOf(id), (current) => current?.status === 'sent', `email ${id} sent`);

    expect(row).toEqual({ status: 'sent', attempts: 1 });
    const [message] = sink.withHeader('X-Leadflow-Email-Id', id);
    expect(message).toMatchObject({ mailFrom: DEFAULT_SENDER, recipients: ['nadia.belanger@example.com'], body: '<p>Bonjour</p>' });
    expect(message.headers.subject).toBe('Votre projet');
  });

  it('delivers a test send to the team member with the [TEST] subject and the sample values', async () => {
    const response = await sendEmail(api, account.api_keys.full.key, {
      to: ACTIVE_MEMBER,
      subject: 'Bonjour {{contact.first_name}}',
      body: '<p>{{contact.full_name}}</p>',
      test: true,
    });
    expect(response.status).toBe(201);
    const id = response.body.data.id;

    await waitFor(() => statusOf(id), (current) => current?.status === 'sent', `email ${id} sent`);

    const [message] = sink.withHeader('X-Leadflow-Email-Id', id);
    expect(message.recipients).toEqual([ACTIVE_MEMBER]);
    expect(message.headers.subject).toBe('[TEST] Bonjour Marie');
    expect(message.body).toBe('<p>Marie Tremblay</p>');
  });

  it('retries a transient SMTP refusal (451) and records the delivery after the retry', async () => {
    sink.refuse('greylisted@example.com', 451, '4.7.1 Greylisted', 1);
    const response = await sendEmail(api, account.api_keys.full.key, { to: 'greylisted@example.com', subject: 'Relance', body: '<p>Relance</p>' });
    const id = response.body.data.id;

    const row = await waitFor(() => statusOf(id), (current) => current?.status === 'sent', `email ${id} sent`);

    expect(row).toEqual({ status: 'sent', attempts: 2 });
    expect(sink.withHeader('X-Leadflow-Email-Id', id)).toHaveLength(1);
  });
});
