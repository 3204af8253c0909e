import type { INestApplicationContext } from '@nestjs/common';
import { SmtpSink } from '@leadflow/shared-testing';
// The real worker app, booted beside the api on the same test services (the app's entry point runs main()).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorker } from '../../worker/src/bootstrap';
import { captureLead, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { messagingBlueprint, sendEmail } from './support/messaging-fixtures';
import { generateCertificate, HttpsReceiver, TestCertificate } from './support/webhooks-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- log lines and rows are asserted field by field */

type LogLine = Record<string, any>;

async function waitFor<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Issue 17, item 4: the request id of the write that produced an outbox event travels with the event
 * into the worker: `platform.outbox.request_id`, then `request_id`, `account_id` and `event_id` on the
 * worker's log lines for the event (each consumer's "Integration event handled"), on the webhook
 * delivery's attempt lines (a real HTTPS receiver on loopback) and on the email delivery's lines. The api and the real worker run at LOG_LEVEL=info on real PostgreSQL and Redis,
 * their JSON log lines captured from the logger's stream.
 */
describe('request id traced from the api through the worker (issue 17, item 4)', () => {
  const lines: LogLine[] = [];
  const logStream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  let api: TestApi;
  let worker: INestApplicationContext;
  let sink: SmtpSink;
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let account: ProvisionedAccount;
  let mailAccount: ProvisionedAccount;
  let sql: ReturnType<typeof sqlOf>;

  const outboxRow = async (type: string, payloadMember: string, value: string) =>
    (
      await sql.query<any>(`SELECT id, account_id, request_id FROM platform.outbox WHERE type = $1 AND payload->>$2 = $3`, [type, payloadMember, value])
    )[0];
  const linesAbout = (message: string, eventId: string) => lines.filter((line) => line.msg === message && line.event_id === eventId);

  beforeAll(async () => {
    sink = await SmtpSink.start();
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    const env = { LOG_LEVEL: 'info', WEBHOOK_CA_FILE: certificate.certFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    api = await TestApi.start(env, undefined, { logStream });
    worker = await createWorker(api.services.config({ ...env, SMTP_URL: sink.url, OUTBOX_RELAY_INTERVAL_MS: '20' }), undefined, { logStream });
    sql = sqlOf(api);
    account = await api.provision(leadsBlueprint());
    const subscribed = await api.request({ method: 'POST', path: '/v1/webhooks', token: account.api_keys.full.key, body: { url: receiver.url('/trace'), events: ['lead_created'] } });
    expect(subscribed.status).toBe(201);
    mailAccount = await api.provision(messagingBlueprint({ name: 'Courriels Tremblay' }));
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await sink?.stop();
    await receiver?.stop();
    certificate?.remove();
  });

  it('a capture sent with X-Request-Id: abc writes lead_created with request_id abc; each consumer and the webhook delivery attempt log it with request_id, account_id and event_id', async () => {
    const requestId = `abc-${Date.now()}`;
    const response = await captureLead(api, account.api_keys.capture.key, { first_name: 'Élise', email: 'elise.trace@example.com', phone: freshPhone().raw, sms_consent: true }, {
      headers: { 'x-request-id': requestId },
    });
    expect(`${response.status} ${JSON.stringify(response.body)}`).toMatch(/^200 /);
    expect(response.headers['x-request-id']).toBe(requestId);

    const event = await outboxRow('lead_created', 'contact_id', response.body.contact_id);
    expect(event).toEqual({ id: expect.any(String), account_id: account.account_id, request_id: requestId });

    // The webhooks consumer (fan-out) handles every catalog event; its line for this one carries the trace.
    const [handled] = await waitFor(() => linesAbout('Integration event handled', event.id).filter((line) => line.consumer === 'webhooks'), (found) => found.length > 0, 'the webhooks consumer line');
    expect(handled).toMatchObject({ app: 'worker', level: 30, consumer: 'webhooks', type: 'lead_created', request_id: requestId, account_id: account.account_id, event_id: event.id });
    // Every consumer's line for the event carries the same request id.
    expect(linesAbout('Integration event handled', event.id).every((line) => line.request_id === requestId)).toBe(true);

    // The webhook delivery of the event: its attempt line carries the trace, and the receiver got it.
    const [attempt] = await waitFor(() => linesAbout('Webhook delivery attempt', event.id), (found) => found.length > 0, 'the webhook delivery attempt line');
    expect(attempt).toMatchObject({ app: 'worker', request_id: requestId, account_id: account.account_id, event_id: event.id, delivery_id: expect.any(String), result: 'succeeded', attempt: 1, response_status: 200 });
    expect(receiver.at('/trace').map((request) => request.headers['x-service-delivery'])).toContain(attempt.delivery_id);

    // The api's own request line names the same id.
    const requestLine = lines.find((line) => line.msg === 'request completed' && line.request_id === requestId);
    expect(requestLine).toMatchObject({ app: 'api', route: '/v1/leads/capture', statusCode: 200, account_id: account.account_id });
  });

  it('an email sent with X-Request-Id: abc is delivered and its "Email sent" line carries request_id abc, account_id, event_id and email_id', async () => {
    const requestId = `abc-mail-${Date.now()}`;
    const response = await sendEmail(api, mailAccount.api_keys.full.key, { to: 'nadia.trace@example.com', subject: 'Votre projet', body: '<p>Bonjour</p>' }, { 'x-request-id': requestId });
    expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 });
    const emailId = response.body.data.id;

    const queued = await outboxRow('email_queued', 'email_id', emailId);
    expect(queued).toEqual({ id: expect.any(String), account_id: mailAccount.account_id, request_id: requestId });

    const sent = await waitFor(() => lines.find((line) => line.msg === 'Email sent' && line.email_id === emailId), (found) => found !== undefined, `the "Email sent" line of ${emailId}`);
    expect(sent).toMatchObject({ app: 'worker', request_id: requestId, account_id: mailAccount.account_id, event_id: queued.id, email_id: emailId, attempts: 1 });
    expect(linesAbout('Integration event handled', queued.id).find((line) => line.consumer === 'outgoing-emails')).toMatchObject({ request_id: requestId });
  });

  it('a request without X-Request-Id gets a generated id, echoed in X-Request-ID and stored on its events', async () => {
    const response = await captureLead(api, account.api_keys.capture.key, { first_name: 'Marc', email: 'marc.trace@example.com', phone: freshPhone().raw, sms_consent: true });
    expect(`${response.status} ${JSON.stringify(response.body)}`).toMatch(/^200 /);
    const generated = response.headers['x-request-id'];
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    expect(await outboxRow('lead_created', 'contact_id', response.body.contact_id)).toMatchObject({ request_id: generated });
  });
});
