import type { INestApplicationContext } from '@nestjs/common';
import { SmtpSink } from '@leadflow/shared-testing';
// The real worker app, booted beside the api on the same test services (the app's entry point runs main()).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorker } from '../../worker/src/bootstrap';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { automationsBlueprint } from './support/automations-fixtures';
import { createContact } from './support/contacts-fixtures';
import { captureLead, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { createQuote, pagePath, quoteEmails, quotesBlueprint, SENDABLE, sendQuote } from './support/quotes-fixtures';
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
  let subscriptionId: string;

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
    subscriptionId = subscribed.body.data.id;
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

  // Writes made elsewhere than the /v1 routes of the first paths: each outbox row names the request id sent.

  it('a redeliver call (POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver) with X-Request-Id: its webhook_delivery_requested row carries it, and the new attempt\'s "Webhook delivery attempt" line names it', async () => {
    const captured = await captureLead(api, account.api_keys.capture.key, { first_name: 'Rémi', email: 'remi.trace@example.com', phone: freshPhone().raw, sms_consent: true });
    expect(`${captured.status} ${JSON.stringify(captured.body)}`).toMatch(/^200 /);
    const created = await outboxRow('lead_created', 'contact_id', captured.body.contact_id);
    const [first] = await waitFor(() => linesAbout('Webhook delivery attempt', created.id), (found) => found.length > 0, 'the first delivery attempt line');
    expect(first).toMatchObject({ result: 'succeeded', attempt: 1 });

    const requestId = `abc-redeliver-${Date.now()}`;
    const redelivered = await api.request({
      method: 'POST',
      path: `/v1/webhooks/${subscriptionId}/deliveries/${first.delivery_id}/redeliver`,
      token: account.api_keys.full.key,
      headers: { 'x-request-id': requestId },
    });
    expect({ status: redelivered.status, body: redelivered.body }).toMatchObject({ status: 202, body: { data: { delivery_id: first.delivery_id, status: 'pending' } } });

    const requested = await outboxRow('webhook_delivery_requested', 'delivery_id', first.delivery_id);
    expect(requested).toEqual({ id: expect.any(String), account_id: account.account_id, request_id: requestId });
    const [again] = await waitFor(() => linesAbout('Webhook delivery attempt', requested.id), (found) => found.length > 0, 'the redelivery attempt line');
    expect(again).toMatchObject({ app: 'worker', request_id: requestId, account_id: account.account_id, event_id: requested.id, delivery_id: first.delivery_id, result: 'succeeded', attempt: 2 });
  });

  it('a webhook subscription created with X-Request-Id writes no outbox row (its activity entry names the calling key)', async () => {
    const requestId = `abc-subscribe-${Date.now()}`;
    const created = await api.request({
      method: 'POST',
      path: '/v1/webhooks',
      token: account.api_keys.full.key,
      headers: { 'x-request-id': requestId },
      body: { url: receiver.url('/trace-2'), events: ['lead_updated'] },
    });
    expect(created.status).toBe(201);
    expect(await sql.query<any>(`SELECT id FROM platform.outbox WHERE request_id = $1`, [requestId])).toEqual([]);
    const [entry] = await sql.query<any>(`SELECT actor FROM platform.activity_log WHERE type = 'webhook_subscription_created' AND data->>'subscription_id' = $1`, [created.body.data.id]);
    expect(entry.actor).toEqual({ type: 'api_key', id: account.api_keys.full.id, name: 'full', via: 'api_key' });
  });

  it('an automation trigger (POST /v1/automations/{id}/trigger) with X-Request-Id: its automation_execution_requested row carries it', async () => {
    const automations = await api.provision(automationsBlueprint());
    const key = automations.api_keys.full.key;
    const contact = await createContact(api, key, { email: 'auto.trace@example.com', first_name: 'Alice' });
    const requestId = `abc-trigger-${Date.now()}`;
    const triggered = await api.request({
      method: 'POST',
      path: `/v1/automations/${(automations.automations as Record<string, string>)['Manuelle']}/trigger`,
      token: key,
      headers: { 'x-request-id': requestId },
      body: { contact_id: contact.id },
    });
    expect({ status: triggered.status, body: triggered.body }).toMatchObject({ status: 201 });
    const requested = await outboxRow('automation_execution_requested', 'execution_id', triggered.body.data.id);
    expect(requested).toEqual({ id: expect.any(String), account_id: automations.account_id, request_id: requestId });
  });

  it('an operator write (POST /admin/v1/accounts/{id}/contacts/{contact_id}/archive) with X-Request-Id: its contact_archived row carries it', async () => {
    const contact = await createContact(api, account.api_keys.full.key, { email: 'operator.trace@example.com', first_name: 'Odile' });
    const requestId = `abc-operator-${Date.now()}`;
    const archived = await api.request({
      method: 'POST',
      path: `/admin/v1/accounts/${account.account_id}/contacts/${contact.id}/archive`,
      token: TEST_ADMIN_TOKEN,
      headers: { 'x-request-id': requestId },
    });
    expect({ status: archived.status, body: archived.body }).toMatchObject({ status: 200, body: { data: { id: contact.id } } });
    const row = await outboxRow('contact_archived', 'contact_id', contact.id);
    expect(row).toEqual({ id: expect.any(String), account_id: account.account_id, request_id: requestId });
    // The operator's actor is unchanged: the trace rides beside it, not in it.
    const [actor] = await sql.query<any>(`SELECT actor FROM platform.outbox WHERE id = $1`, [row.id]);
    expect(actor.actor).toEqual({ type: 'operator', id: null, name: 'operator', via: null });
  });

  it('the public quote page (GET /q/{token}, then the Sign form post) with X-Request-Id: quote_viewed and quote_signed carry each request\'s id', async () => {
    const quotes = await api.provision(quotesBlueprint());
    const key = quotes.api_keys.full.key;
    const quote = await createQuote(api, key, { ...SENDABLE, prospect_phone: null, prospect_email: 'quote.trace@example.com' });
    expect((await sendQuote(api, key, quote.id)).status).toBe(200);
    const email = (await quoteEmails(api, quotes)).find((row) => row.to === 'quote.trace@example.com');
    const path = pagePath(email!.html);

    const viewId = `abc-view-${Date.now()}`;
    expect((await api.request({ path, headers: { 'x-request-id': viewId } })).status).toBe(200);
    const signId = `abc-sign-${Date.now()}`;
    const signed = await api.request({ method: 'POST', path: `${path}/sign`, rawBody: 'confirm=sign', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': signId } });
    expect(signed.status).toBe(303);

    expect(await outboxRow('quote_viewed', 'quote_id', quote.id)).toEqual({ id: expect.any(String), account_id: quotes.account_id, request_id: viewId });
    const signedRow = await outboxRow('quote_signed', 'quote_id', quote.id);
    expect(signedRow).toEqual({ id: expect.any(String), account_id: quotes.account_id, request_id: signId });
    const [actor] = await sql.query<any>(`SELECT actor FROM platform.outbox WHERE id = $1`, [signedRow.id]);
    expect(actor.actor).toEqual({ type: null, id: null, name: 'lead', via: null });
  });
});
