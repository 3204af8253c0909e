import { getQueueToken, WorkerHost } from '@nestjs/bullmq';
import { INestApplicationContext } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { newId } from '@leadflow/shared-kernel';
import { consumerQueueName, OutboxRelay } from '@leadflow/shared-platform';
import { WEBHOOK_DELIVERY_QUEUE, WEBHOOKS_CONSUMER, WebhookDeliverySweeper } from '@leadflow/webhooks-adapters';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the worker app under test, as in emails-delivery.e2e-spec.ts
import { createWorker } from '../../worker/src/bootstrap';
import { createContact, expectStatus } from './support/contacts-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';
import { generateCertificate, HttpsReceiver, signatureMatches, TestCertificate, webhooksBlueprint } from './support/webhooks-fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies and rows are asserted field by field */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Settings of the worker under test: 1 ms retry base (12 attempts in ≈ 2 s), short lease and sweeps. */
const WORKER_ENV = {
  OUTBOX_RELAY_INTERVAL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '1',
  WEBHOOK_LEASE_MS: '1500',
  WEBHOOK_SWEEP_INTERVAL_MS: '100',
  WEBHOOK_SWEEP_GRACE_MS: '0',
};

/**
 * A worker "killed" in the middle of a delivery, as far as a test process can: its relay, sweeper and
 * BullMQ workers stop at once (force, no draining) and its PostgreSQL pool is destroyed, so the attempt
 * in flight can never record its outcome.
 */
async function killWorker(worker: INestApplicationContext): Promise<void> {
  await worker.get(OutboxRelay, { strict: false }).stop();
  await worker.get(WebhookDeliverySweeper, { strict: false }).onModuleDestroy();
  const discovery = worker.get(DiscoveryService, { strict: false });
  for (const wrapper of discovery.getProviders()) {
    const instance: unknown = wrapper.isDependencyTreeStatic() ? wrapper.instance : undefined;
    if (instance instanceof WorkerHost) await instance.worker.close(true).catch(() => undefined);
  }
  await worker.get(DataSource).destroy();
}

/**
 * Webhook deliveries through the real worker (outbox relay, fan-out, webhooks consumer, delivery
 * processor, sweeper) on real PostgreSQL and Redis, to a real HTTPS receiver on 127.0.0.1 whose
 * self-signed certificate is trusted through `WEBHOOK_CA_FILE` (issue 6 › Event catalog and deliveries).
 */
describe('Webhook deliveries (real worker, HTTPS receiver on loopback)', () => {
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let api: TestApi;
  let worker: INestApplicationContext;
  let sql: ReturnType<typeof sqlOf>;
  let env: Record<string, string>;

  const tokenOf = (account: ProvisionedAccount, name = 'full') => account.api_keys[name].key;
  const subscribe = async (account: ProvisionedAccount, path: string, events: unknown, key = 'full') =>
    expectStatus(await api.request({ method: 'POST', path: '/v1/webhooks', token: tokenOf(account, key), body: { url: receiver.url(path), events } }), 201).body.data;
  const deliveriesOf = (account: ProvisionedAccount) =>
    sql.query<any>(`SELECT * FROM webhooks.deliveries WHERE account_id = $1 ORDER BY created_at, id`, [account.account_id]);
  const attemptsOf = (deliveryId: string) =>
    sql.query<any>(`SELECT attempt, status, response_status, error, next_attempt_at FROM webhooks.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt, id`, [
      deliveryId,
    ]);
  const settled = (account: ProvisionedAccount, count: number) =>
    waitFor(
      () => deliveriesOf(account),
      (rows) => rows.length >= count && rows.every((row) => row.status === 'succeeded' || row.status === 'failed'),
      `${count} settled deliveries`,
    );
  /** Writes an outbox event as another context would (same table, same columns). */
  const emit = async (account: ProvisionedAccount, type: string, payload: Record<string, unknown>, actor: Record<string, unknown> = { type: null, id: null, name: null, via: null }) => {
    const id = newId();
    await sql.query(`INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relay_attempts) VALUES ($1, $2, $3, $4, $5, now(), 0)`, [
      id,
      account.account_id,
      type,
      payload,
      actor,
    ]);
    return id;
  };

  const killed: INestApplicationContext[] = [];

  beforeAll(async () => {
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    env = { WEBHOOK_CA_FILE: certificate.certFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    api = await TestApi.start(env);
    sql = sqlOf(api);
    worker = await createWorker(api.services.config({ ...env, ...WORKER_ENV }));
  });
  afterAll(async () => {
    // A "killed" worker still holds its timers and Redis connections: closed here so the Jest worker exits.
    for (const dead of killed) await dead.close().catch(() => undefined);
    await worker?.close().catch(() => undefined);
    await receiver?.stop();
    await api?.close();
    certificate?.remove();
  });

  it('delivers a subscribed event once: signed JSON POST with X-Service-Event, X-Service-Delivery, data.system resolved at delivery and data.actor', async () => {
    const account = await api.provision(webhooksBlueprint());
    const subscription = await subscribe(account, '/signed', ['contact_created']);
    const contact = await createContact(api, tokenOf(account), { email: 'nadia@example.com', first_name: 'Nadia', system_id: account.systems.Laval });

    const [delivery] = await settled(account, 1);
    await pause(200);

    const received = receiver.at('/signed');
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-service-event']).toBe('contact_created');
    expect(request.headers['x-service-delivery']).toBe(delivery.id);
    expect(request.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signatureMatches(request.headers['x-service-signature'], request.rawBody, subscription.secret)).toBe(true);
    expect(signatureMatches(request.headers['x-service-signature'], request.rawBody.replace('Nadia', 'Nadja'), subscription.secret)).toBe(false);
    expect(Object.keys(request.body)).toEqual(['event', 'id', 'created_at', 'livemode', 'data', 'changes']);
    expect(request.body).toEqual({
      event: 'contact_created',
      id: delivery.id,
      created_at: expect.stringMatching(ISO),
      livemode: true,
      data: expect.objectContaining({
        contact_id: contact.id,
        contact: expect.objectContaining({ id: contact.id, email: 'nadia@example.com' }),
        system: { id: account.systems.Laval, name: 'Laval' },
        actor: { type: 'api_key', id: account.api_keys.full.id, name: 'full', via: 'api_key' },
      }),
      changes: null,
    });
    expect(delivery).toMatchObject({ subscription_id: subscription.id, event: 'contact_created', status: 'succeeded', attempt: 1, response_status: 200, next_attempt_at: null });
    expect(await attemptsOf(delivery.id)).toEqual([{ attempt: 1, status: 'succeeded', response_status: 200, error: null, next_attempt_at: null }]);
  });

  it('a subscription created after the worker cached the account\'s subscriptions (none) receives the next event: creation invalidates the fan-out cache', async () => {
    const account = await api.provision(webhooksBlueprint());
    const first = await createContact(api, tokenOf(account), { email: 'avant@example.com', first_name: 'Avant' });
    await waitFor(() => sql.query<any>(`SELECT relayed_at FROM platform.outbox WHERE account_id = $1 AND type = 'contact_created'`, [account.account_id]), (rows) => rows.length === 1 && rows[0].relayed_at !== null, 'first event relayed');
    await pause(300); // fanned out to no subscription: the worker now caches "none" for the account
    expect(first.id).toBeDefined();
    await subscribe(account, '/after-cache', ['contact_created']);
    await createContact(api, tokenOf(account), { email: 'apres@example.com', first_name: 'Après' });
    const deliveries = await settled(account, 1);
    expect(deliveries).toHaveLength(1);
    expect(receiver.at('/after-cache')).toHaveLength(1);
    expect(receiver.at('/after-cache')[0].body.data.contact.email).toBe('apres@example.com');
  });

  it('fans out to every matching subscription of the account only ("*" or the name), never internal event types, never another account\'s subscriptions', async () => {
    const account = await api.provision(webhooksBlueprint());
    const stranger = await api.provision(webhooksBlueprint());
    const named = await subscribe(account, '/fan/named', ['lead_updated']);
    const star = await subscribe(account, '/fan/star', '*', 'other');
    await subscribe(stranger, '/fan/stranger', '*');
    const contact = await createContact(api, tokenOf(account), { email: 'marc@example.com', first_name: 'Marc' });
    expectStatus(await api.request({ method: 'PATCH', path: `/v1/contacts/${contact.id}`, token: tokenOf(account), body: { first_name: 'Marc-André' } }), 200);
    await emit(account, 'contact_archived', { contact_id: contact.id }); // internal: never delivered

    const rows = await settled(account, 3);
    await pause(300);

    expect(rows.map((row) => [row.subscription_id, row.event]).sort()).toEqual(
      [
        [named.id, 'lead_updated'],
        [star.id, 'contact_created'],
        [star.id, 'lead_updated'],
      ].sort(),
    );
    expect(receiver.at('/fan/named').map((r) => r.body.event)).toEqual(['lead_updated']);
    expect(receiver.at('/fan/star').map((r) => r.body.event).sort()).toEqual(['contact_created', 'lead_updated']);
    expect(receiver.at('/fan/stranger')).toEqual([]);
    const updated = receiver.at('/fan/named')[0].body;
    expect(updated.changes).toEqual(expect.objectContaining({ first_name: { previous: 'Marc', current: 'Marc-André' } }));
    expect(updated.data.system).toEqual({ id: account.systems.Main, name: 'Main' });
  });

  it('redacts sensitive keys in changes and data (password, api_key, token, ssn, authorization…)', async () => {
    const account = await api.provision(webhooksBlueprint());
    await subscribe(account, '/redacted', ['lead_updated']);
    await emit(account, 'lead_updated', {
      contact_id: newId(),
      notes: 'rappeler',
      api_key: 'lf_live_xxx',
      changes: {
        first_name: { previous: 'A', current: 'B' },
        password: { previous: 'old', current: 'new' },
        custom_fields: { accessToken: 'abc', ssn: '123-45-6789', business: 'Toitures' },
        Authorization: 'Bearer x',
      },
    });

    await settled(account, 1);

    const [request] = receiver.at('/redacted');
    expect(request.body.changes).toEqual({
      first_name: { previous: 'A', current: 'B' },
      password: '[REDACTED]',
      custom_fields: { accessToken: '[REDACTED]', ssn: '[REDACTED]', business: 'Toitures' },
      Authorization: '[REDACTED]',
    });
    expect(request.body.data).toMatchObject({ notes: 'rappeler', api_key: '[REDACTED]', system: null });
    expect(request.rawBody).not.toContain('lf_live_xxx');
    expect(request.rawBody).not.toContain('123-45-6789');
  });

  it('retries with backoff: a receiver that fails twice (500, 503) then succeeds gets three attempts of the same delivery, each recorded', async () => {
    const account = await api.provision(webhooksBlueprint());
    receiver.plan('/flaky', 500, 503);
    await subscribe(account, '/flaky', ['note_created']);
    await emit(account, 'note_created', { contact_id: newId(), note_id: newId(), body: 'Rappeler lundi' });

    const [delivery] = await settled(account, 1);

    const received = receiver.at('/flaky');
    expect(received.map((r) => r.answered)).toEqual([500, 503, 200]);
    expect(new Set(received.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([delivery.id]));
    expect(received.every((r) => r.body.id === delivery.id)).toBe(true);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt: 3, response_status: 200, next_attempt_at: null });
    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => [a.attempt, a.status, a.response_status, a.error])).toEqual([
      [1, 'retrying', 500, 'HTTP 500'],
      [2, 'retrying', 503, 'HTTP 503'],
      [3, 'succeeded', 200, null],
    ]);
    expect(attempts[0].next_attempt_at).toBeInstanceOf(Date);
    expect(attempts[1].next_attempt_at).toBeInstanceOf(Date);

    const admin = await api.admin('GET', `/accounts/${account.account_id}/webhook-deliveries`);
    expect(admin.status).toBe(200);
    expect(admin.body.data).toEqual([
      {
        id: delivery.id,
        subscription_id: delivery.subscription_id,
        event: 'note_created',
        status: 'succeeded',
        attempt: 3,
        response_status: 200,
        next_attempt_at: null,
        created_at: expect.stringMatching(ISO),
      },
    ]);
  });

  it('retries a network error (connection dropped without answer) like a failed status', async () => {
    const account = await api.provision(webhooksBlueprint());
    receiver.plan('/dropped', 'drop');
    await subscribe(account, '/dropped', ['task_created']);
    await emit(account, 'task_created', { task_id: newId() });

    const [delivery] = await settled(account, 1);

    expect(delivery).toMatchObject({ status: 'succeeded', attempt: 2 });
    const attempts = await attemptsOf(delivery.id);
    expect(attempts[0]).toMatchObject({ attempt: 1, status: 'retrying', response_status: null, error: expect.any(String) });
  });

  it('gives up after 12 attempts: the delivery is failed, every attempt recorded, no next_attempt_at', async () => {
    const account = await api.provision(webhooksBlueprint());
    receiver.plan('/down', ...Array.from({ length: 12 }, () => 500));
    await subscribe(account, '/down', ['call_ended']);
    await emit(account, 'call_ended', { call_id: newId() });

    const [delivery] = await waitFor(() => deliveriesOf(account), (rows) => rows[0]?.status === 'failed', 'a failed delivery', 20_000);
    await pause(200);

    expect(delivery).toMatchObject({ status: 'failed', attempt: 12, response_status: 500, next_attempt_at: null });
    expect(receiver.at('/down')).toHaveLength(12);
    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(attempts[11]).toMatchObject({ status: 'failed', next_attempt_at: null });
  });

  it('is idempotent on (event, subscription): an event consumed twice creates one delivery and one POST', async () => {
    const account = await api.provision(webhooksBlueprint());
    await subscribe(account, '/once', ['payment_received']);
    const eventId = await emit(account, 'payment_received', { quote_id: newId(), amount: 1000 });
    await settled(account, 1);
    const [outboxRow] = await sql.query<any>(`SELECT sequence::text AS sequence, occurred_at FROM platform.outbox WHERE id = $1`, [eventId]);
    const consumer = worker.get<Queue>(getQueueToken(consumerQueueName(WEBHOOKS_CONSUMER)), { strict: false });

    await consumer.add(
      'payment_received',
      {
        id: eventId,
        sequence: outboxRow.sequence,
        type: 'payment_received',
        accountId: account.account_id,
        occurredAt: new Date(outboxRow.occurred_at).toISOString(),
        payload: { quote_id: newId(), amount: 1000 },
        actor: { type: null, id: null, name: null, via: null },
      },
      { jobId: `${eventId}.replayed` },
    );
    await pause(500);

    expect(await deliveriesOf(account)).toHaveLength(1);
    expect(receiver.at('/once')).toHaveLength(1);
  });

  it('loses nothing when a delivery\'s job is lost (Redis flushed): the sweeper schedules it again from PostgreSQL', async () => {
    const account = await api.provision(webhooksBlueprint());
    const subscription = await subscribe(account, '/swept', ['booking_created']);
    const deliveryId = newId();
    // A delivery PostgreSQL knows about (retrying after attempt 1) but Redis has no job for.
    await sql.query(
      `INSERT INTO webhooks.deliveries (id, account_id, subscription_id, event_id, event, body, status, attempt, response_status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'booking_created', $5, 'retrying', 1, 502, now() - interval '1 minute', now(), now())`,
      [
        deliveryId,
        account.account_id,
        subscription.id,
        newId(),
        { event: 'booking_created', created_at: new Date().toISOString(), data: { booking_id: 'b1' }, changes: null, actor: { type: null, id: null, name: null, via: null } },
      ],
    );
    const queue = worker.get<Queue>(getQueueToken(WEBHOOK_DELIVERY_QUEUE), { strict: false });
    expect(await queue.getJob(`${deliveryId}.2`)).toBeUndefined();

    const [delivery] = await settled(account, 1);

    expect(delivery).toMatchObject({ id: deliveryId, status: 'succeeded', attempt: 2, response_status: 200 });
    expect(receiver.at('/swept').map((r) => r.headers['x-service-delivery'])).toEqual([deliveryId]);
  });

  it('survives a worker killed mid-delivery: a new worker completes the delivery (at-least-once, same X-Service-Delivery)', async () => {
    const account = await api.provision(webhooksBlueprint());
    receiver.plan('/slow', 'hold');
    await subscribe(account, '/slow', ['quote_signed']);
    await emit(account, 'quote_signed', { quote_id: newId() });
    await waitFor(() => receiver.heldCount, (count) => count === 1, 'the held request');

    await killWorker(worker);
    killed.push(worker);
    receiver.release('drop'); // the dead worker never hears back
    expect((await deliveriesOf(account))[0]).toMatchObject({ status: 'pending', attempt: 0 });
    worker = await createWorker(api.services.config({ ...env, ...WORKER_ENV }));

    const [delivery] = await settled(account, 1);

    const received = receiver.at('/slow');
    expect(received).toHaveLength(2);
    expect(received[0].headers['x-service-delivery']).toBe(delivery.id);
    expect(received[1].headers['x-service-delivery']).toBe(delivery.id);
    expect(received[1].answered).toBe(200);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt: 1, response_status: 200 });
    expect(await attemptsOf(delivery.id)).toEqual([expect.objectContaining({ attempt: 1, status: 'succeeded' })]);
  });

  it('samples: an event emitted outside the activity log is recorded only once a subscription listens to it (id = source event id, data.system null)', async () => {
    const account = await api.provision(webhooksBlueprint());
    const before = await emit(account, 'sms_received', { contact_id: newId(), body: 'Oui' });
    await subscribe(account, '/marker', ['email_sent']);
    await emit(account, 'email_sent', { email_id: newId() });
    await settled(account, 1);
    await waitFor(() => sql.query<any>(`SELECT relayed_at FROM platform.outbox WHERE id = $1`, [before]), (rows) => rows[0]?.relayed_at !== null, 'relay');
    await pause(300);
    const notRecorded = await api.request({ path: '/v1/webhook-events', token: tokenOf(account), query: { event: 'sms_received' } });

    await subscribe(account, '/sms', ['sms_received']);
    const after = await emit(account, 'sms_received', { contact_id: newId(), body: 'Non' }, { type: 'integration', id: null, name: 'Twilio', via: null });
    await settled(account, 2);
    const recorded = await api.request({ path: '/v1/webhook-events', token: tokenOf(account), query: { event: 'sms_received' } });

    expect(notRecorded.body.data).toEqual([]);
    expect(recorded.body.data).toEqual([
      {
        event: 'sms_received',
        id: after,
        created_at: expect.stringMatching(ISO),
        data: { contact_id: expect.any(String), body: 'Non', system: null, actor: { type: 'integration', id: null, name: 'Twilio', via: null } },
        changes: null,
      },
    ]);
  });
});

/** The SSRF guard again at delivery time: the api allowed the private target, the worker does not. */
describe('Webhook deliveries, SSRF guard at delivery (WEBHOOK_ALLOW_PRIVATE_TARGETS unset in the worker)', () => {
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let api: TestApi;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    api = await TestApi.start({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    worker = await createWorker(api.services.config({ WEBHOOK_CA_FILE: certificate.certFile, ...WORKER_ENV }));
  });
  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await receiver?.stop();
    await api?.close();
    certificate?.remove();
  });

  it.each([
    ['127.0.0.1', (r: HttpsReceiver) => r.url('/ip')],
    ['localhost (a hostname resolving to loopback)', (r: HttpsReceiver) => r.url('/name', 'localhost')],
  ])('refuses to connect to a non-public target at delivery (%s): delivery failed, non_public_target recorded, nothing received', async (_, urlOf) => {
    const account = await api.provision(webhooksBlueprint());
    const url = urlOf(receiver);
    expectStatus(await api.request({ method: 'POST', path: '/v1/webhooks', token: account.api_keys.full.key, body: { url, events: '*' } }), 201);
    await createContact(api, account.api_keys.full.key, { email: 'julie@example.com' });

    const sql = sqlOf(api);
    const [delivery] = await waitFor(
      () => sql.query<any>(`SELECT * FROM webhooks.deliveries WHERE account_id = $1`, [account.account_id]),
      (rows) => rows[0]?.status === 'failed',
      'a refused delivery',
    );

    expect(delivery).toMatchObject({ status: 'failed', attempt: 1, response_status: null, last_error: expect.stringMatching(/^non_public_target/) });
    expect(receiver.received).toEqual([]);
  });
});

/** The 10-second rule: a receiver that does not answer within 10 s counts as a failed attempt and is retried. */
describe('Webhook deliveries, 10-second timeout', () => {
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let api: TestApi;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    const env = { WEBHOOK_CA_FILE: certificate.certFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    api = await TestApi.start(env);
    // The lease (20 s) outlives the 10 s timeout, as the default (30 s) does: no second attempt starts meanwhile.
    worker = await createWorker(api.services.config({ ...env, ...WORKER_ENV, WEBHOOK_LEASE_MS: '20000' }));
  });
  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await receiver?.stop();
    await api?.close();
    certificate?.remove();
  });

  it('a delivery not answered within 10 seconds is recorded as a timeout and retried', async () => {
    const account = await api.provision(webhooksBlueprint());
    receiver.plan('/silent', 'hold');
    expectStatus(
      await api.request({ method: 'POST', path: '/v1/webhooks', token: account.api_keys.full.key, body: { url: receiver.url('/silent'), events: ['stage_changed'] } }),
      201,
    );
    await sqlOf(api).query(
      `INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relay_attempts) VALUES ($1, $2, 'stage_changed', '{}', '{"type":null,"id":null,"name":null,"via":null}', now(), 0)`,
      [newId(), account.account_id],
    );
    await waitFor(() => receiver.heldCount, (count) => count === 1, 'the held request');
    const heldAt = Date.now();

    const [delivery] = await waitFor(
      () => sqlOf(api).query<any>(`SELECT * FROM webhooks.deliveries WHERE account_id = $1`, [account.account_id]),
      (rows) => rows[0]?.status === 'succeeded',
      'the retried delivery',
      20_000,
    );

    expect(Date.now() - heldAt).toBeGreaterThanOrEqual(9_500);
    expect(delivery).toMatchObject({ attempt: 2, response_status: 200 });
    const attempts = await sqlOf(api).query<any>(`SELECT attempt, status, response_status, error FROM webhooks.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [
      delivery.id,
    ]);
    expect(attempts).toEqual([
      { attempt: 1, status: 'retrying', response_status: null, error: expect.stringMatching(/timeout|Timeout/) },
      { attempt: 2, status: 'succeeded', response_status: 200, error: null },
    ]);
    receiver.release('drop');
  }, 40_000);
});
