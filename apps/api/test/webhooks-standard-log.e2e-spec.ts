import { INestApplicationContext } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { newId } from '@leadflow/shared-kernel';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the worker app under test, as in webhooks-delivery.e2e-spec.ts
import { createWorker } from '../../worker/src/bootstrap';
import { expectStatus } from './support/contacts-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';
import { generateCertificate, HttpsReceiver, signatureMatches, TestCertificate, webhooksBlueprint } from './support/webhooks-fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies and rows are asserted field by field */

async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The documented mapping of a Leadflow secret (64 hex characters, the HMAC key as UTF-8) to the Standard Webhooks format. */
const toStandardWebhooksSecret = (secret: string) => `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const WORKER_ENV = { OUTBOX_RELAY_INTERVAL_MS: '20', WEBHOOK_RETRY_BASE_MS: '1', WEBHOOK_LEASE_MS: '1500', WEBHOOK_SWEEP_INTERVAL_MS: '100', WEBHOOK_SWEEP_GRACE_MS: '0' };

/**
 * Issue 15, items 1–3 through the real api and worker on PostgreSQL and Redis, to a real HTTPS receiver
 * on 127.0.0.1 (self-signed certificate trusted through `WEBHOOK_CA_FILE`): Standard Webhooks headers
 * verified by the official `standardwebhooks` package, secret rotation, the public delivery log,
 * redelivery, and the receiver's answers (410, Retry-After, 3xx, five days of failures).
 */
describe('Webhooks: Standard Webhooks signatures, secret rotation, delivery log and redelivery (real HTTPS receiver)', () => {
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let api: TestApi;
  let worker: INestApplicationContext;
  let sql: ReturnType<typeof sqlOf>;

  const tokenOf = (account: ProvisionedAccount, name = 'full') => account.api_keys[name].key;
  const call = (account: ProvisionedAccount, method: 'GET' | 'POST', path: string, key = 'full', query?: Record<string, string>) =>
    api.request({ method, path, token: tokenOf(account, key), query });
  const subscribe = async (account: ProvisionedAccount, path: string, events: unknown = ['note_created']) =>
    expectStatus(await api.request({ method: 'POST', path: '/v1/webhooks', token: tokenOf(account), body: { url: receiver.url(path), events } }), 201).body.data;
  const emit = async (account: ProvisionedAccount, type = 'note_created', payload: Record<string, unknown> = { note_id: newId() }) => {
    const id = newId();
    await sql.query(`INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relay_attempts) VALUES ($1, $2, $3, $4, $5, now(), 0)`, [
      id,
      account.account_id,
      type,
      payload,
      { type: null, id: null, name: null, via: null },
    ]);
    return id;
  };
  const deliveriesOf = (account: ProvisionedAccount) => sql.query<any>(`SELECT * FROM webhooks.deliveries WHERE account_id = $1 ORDER BY created_at, id`, [account.account_id]);
  const settled = (account: ProvisionedAccount, count: number) =>
    waitFor(() => deliveriesOf(account), (rows) => rows.length >= count && rows.every((row) => row.status === 'succeeded' || row.status === 'failed'), `${count} settled deliveries`);
  /** The receiver's request as the standardwebhooks library wants its headers. */
  const headersOf = (request: { headers: Record<string, unknown> }) => ({
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });

  beforeAll(async () => {
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    const env = { WEBHOOK_CA_FILE: certificate.certFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    api = await TestApi.start(env);
    sql = sqlOf(api);
    worker = await createWorker(api.services.config({ ...env, ...WORKER_ENV }));
  });
  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await receiver?.stop();
    await api?.close();
    certificate?.remove();
  });

  describe('Standard Webhooks headers (item 1)', () => {
    it('the official standardwebhooks package verifies real deliveries with the secret in whsec_ form; webhook-id is the delivery id, stable across retries; X-Service-Signature still sent', async () => {
      const account = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/std');
      receiver.plan('/std', 500);
      await emit(account);
      const [delivery] = await settled(account, 1);

      const received = receiver.at('/std');
      expect(received.map((r) => r.answered)).toEqual([500, 200]);
      const verifier = new Webhook(toStandardWebhooksSecret(subscription.secret));
      for (const request of received) {
        expect(request.headers['webhook-id']).toBe(delivery.id);
        expect(request.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
        expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
        expect(verifier.verify(request.rawBody, headersOf(request))).toEqual(JSON.parse(request.rawBody));
        expect(signatureMatches(request.headers['x-service-signature'], request.rawBody, subscription.secret)).toBe(true);
      }
      expect(() => verifier.verify(received[1].rawBody.replace('note_created', 'note_createD'), headersOf(received[1]))).toThrow();
      expect(() => new Webhook(toStandardWebhooksSecret('f'.repeat(64))).verify(received[1].rawBody, headersOf(received[1]))).toThrow();
    });
  });

  describe('Secret rotation (item 2)', () => {
    it('rotate-secret returns the new secret once (200); for 24 h deliveries carry both signatures (webhook-signature and X-Service-Signature), each secret verifies; secrets encrypted at rest', async () => {
      const account = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/rotate');
      const rotated = await call(account, 'POST', `/v1/webhooks/${subscription.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.data).toEqual({ id: subscription.id, secret: expect.stringMatching(/^[0-9a-f]{64}$/), previous_secret_expires_at: expect.stringMatching(ISO) });
      expect(Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
      const newSecret = rotated.body.data.secret as string;
      expect(newSecret).not.toBe(subscription.secret);

      await emit(account);
      await settled(account, 1);
      const [request] = receiver.at('/rotate');
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(new Webhook(toStandardWebhooksSecret(newSecret)).verify(request.rawBody, headersOf(request))).toBeDefined();
      expect(new Webhook(toStandardWebhooksSecret(subscription.secret)).verify(request.rawBody, headersOf(request))).toBeDefined();
      expect(String(request.headers['x-service-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);

      const [row] = await sql.query<any>(`SELECT * FROM webhooks.subscriptions WHERE id = $1`, [subscription.id]);
      expect(row.secret_ciphertext).toMatch(/^v1\./);
      expect(row.previous_secret_ciphertext).toMatch(/^v1\./);
      expect(JSON.stringify(row)).not.toContain(newSecret);
      expect(JSON.stringify(row)).not.toContain(subscription.secret);
      const listed = await call(account, 'GET', '/v1/webhooks');
      expect(JSON.stringify(listed.body)).not.toContain(newSecret);
    });

    it('after the 24 hours the old secret is dropped: erased at rest by the worker, and deliveries carry the new signature only', async () => {
      const account = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/rotated-expired');
      const newSecret = (await call(account, 'POST', `/v1/webhooks/${subscription.id}/rotate-secret`)).body.data.secret as string;
      await sql.query(`UPDATE webhooks.subscriptions SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [subscription.id]);
      await waitFor(() => sql.query<any>(`SELECT previous_secret_ciphertext FROM webhooks.subscriptions WHERE id = $1`, [subscription.id]), (rows) => rows[0].previous_secret_ciphertext === null, 'the old secret erased');

      await emit(account);
      await settled(account, 1);
      const [request] = receiver.at('/rotated-expired');
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(new Webhook(toStandardWebhooksSecret(newSecret)).verify(request.rawBody, headersOf(request))).toBeDefined();
      expect(() => new Webhook(toStandardWebhooksSecret(subscription.secret)).verify(request.rawBody, headersOf(request))).toThrow();
      expect(signatureMatches(request.headers['x-service-signature'], request.rawBody, newSecret)).toBe(true);
    });

    it('only the owning key rotates: another key of the account and another account get 404 not_found (resource webhook), a key without webhooks:manage 403; the secret is unchanged', async () => {
      const account = await api.provision(webhooksBlueprint());
      const stranger = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/rotate-owner');
      const [before] = await sql.query<any>(`SELECT secret_ciphertext FROM webhooks.subscriptions WHERE id = $1`, [subscription.id]);
      for (const response of [await call(account, 'POST', `/v1/webhooks/${subscription.id}/rotate-secret`, 'other'), await call(stranger, 'POST', `/v1/webhooks/${subscription.id}/rotate-secret`), await call(account, 'POST', `/v1/webhooks/not-a-uuid/rotate-secret`)]) {
        expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({ status: 404, code: 'not_found', details: { resource: 'webhook' } });
      }
      const forbidden = await call(account, 'POST', `/v1/webhooks/${subscription.id}/rotate-secret`, 'reader');
      expect({ status: forbidden.status, code: forbidden.body.code, details: forbidden.body.details }).toEqual({ status: 403, code: 'insufficient_scope', details: { required_scope: 'webhooks:manage' } });
      const [after] = await sql.query<any>(`SELECT secret_ciphertext, previous_secret_ciphertext FROM webhooks.subscriptions WHERE id = $1`, [subscription.id]);
      expect(after).toEqual({ secret_ciphertext: before.secret_ciphertext, previous_secret_ciphertext: null });
    });
  });

  describe('Delivery log and redelivery (item 3)', () => {
    it('GET /v1/webhooks/{id}/deliveries lists newest first with every attempt (time, response status, latency, first 1 KiB of the answer); GET one delivery; keyset pages; filters', async () => {
      const account = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/log', ['note_created', 'task_created']);
      receiver.plan('/log', { status: 500, body: 'x'.repeat(3000) });
      await emit(account, 'note_created');
      await settled(account, 1);
      await emit(account, 'task_created', { task_id: newId() });
      await settled(account, 2);
      const [first, second] = await deliveriesOf(account);

      const list = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`);
      expect(list.status).toBe(200);
      expect(list.body.data.map((d: any) => d.id)).toEqual([second.id, first.id]);
      expect(list.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: 20, total_count: 2 });
      const noted = list.body.data[1];
      expect(noted).toEqual({
        id: first.id,
        webhook_id: subscription.id,
        event: 'note_created',
        status: 'succeeded',
        attempt_count: 2,
        next_attempt_at: null,
        created_at: expect.stringMatching(ISO),
        attempts: [
          { attempt: 1, attempted_at: expect.stringMatching(ISO), response_status: 500, latency_ms: expect.any(Number), response_body: 'x'.repeat(1024), error: 'HTTP 500' },
          { attempt: 2, attempted_at: expect.stringMatching(ISO), response_status: 200, latency_ms: expect.any(Number), response_body: '{"ok":true}', error: null },
        ],
      });

      const one = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries/${first.id}`);
      expect(one.status).toBe(200);
      expect(one.body.data).toEqual(noted);

      const page1 = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'full', { limit: '1' });
      expect(page1.body.data.map((d: any) => d.id)).toEqual([second.id]);
      expect(page1.body.pagination).toMatchObject({ has_more: true, limit: 1, total_count: 2 });
      const page2 = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'full', { limit: '1', cursor: page1.body.pagination.next_cursor });
      expect(page2.body.data.map((d: any) => d.id)).toEqual([first.id]);
      expect(page2.body.pagination.has_more).toBe(false);

      const byEvent = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'full', { event: 'task_created', status: 'succeeded' });
      expect(byEvent.body.data.map((d: any) => d.id)).toEqual([second.id]);
      const future = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'full', { from: '2099-01-01' });
      expect(future.body).toMatchObject({ data: [], pagination: { total_count: 0 } });
      const exhausted = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'full', { status: 'exhausted' });
      expect(exhausted.body.data).toEqual([]);
    });

    it('bad filters answer 400 validation_error with every violation, never a 500', async () => {
      const account = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/log-bad');
      const response = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'full', { status: 'retrying', event: 'nope', from: 'hier', to: '2026-13-45' });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_error');
      expect(response.body.details.map((v: any) => [v.field, v.reason])).toEqual([
        ['status', 'invalid_value'],
        ['event', 'unknown_event_type'],
        ['from', 'invalid_format'],
        ['to', 'invalid_format'],
      ]);
      const badLimit = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'full', { limit: '0' });
      expect({ status: badLimit.status, code: badLimit.body.code }).toEqual({ status: 400, code: 'invalid_request' });
    });

    it('tenant isolation: another account\'s or another key\'s webhook, and a delivery of another webhook, answer like missing ones (404 not_found)', async () => {
      const account = await api.provision(webhooksBlueprint());
      const stranger = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/iso');
      const otherSubscription = await subscribe(account, '/iso-2', ['task_created']);
      await emit(account);
      const [delivery] = await settled(account, 1);
      const notFound = (response: any, resource: string) =>
        expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({ status: 404, code: 'not_found', details: { resource } });

      notFound(await call(stranger, 'GET', `/v1/webhooks/${subscription.id}/deliveries`), 'webhook');
      notFound(await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'other'), 'webhook');
      notFound(await call(stranger, 'GET', `/v1/webhooks/${subscription.id}/deliveries/${delivery.id}`), 'webhook');
      notFound(await call(account, 'GET', `/v1/webhooks/${otherSubscription.id}/deliveries/${delivery.id}`), 'webhook_delivery');
      notFound(await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries/${newId()}`), 'webhook_delivery');
      notFound(await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries/nope`), 'webhook_delivery');
      notFound(await call(stranger, 'POST', `/v1/webhooks/${subscription.id}/deliveries/${delivery.id}/redeliver`), 'webhook');
      notFound(await call(account, 'POST', `/v1/webhooks/${otherSubscription.id}/deliveries/${delivery.id}/redeliver`), 'webhook_delivery');
      const forbidden = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries`, 'reader');
      expect({ status: forbidden.status, code: forbidden.body.code }).toEqual({ status: 403, code: 'insufficient_scope' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.at('/iso')).toHaveLength(1); // no redelivery happened
    });

    it('redeliver: 202, a new attempt now with the same webhook-id, counted in the log (attempt 2)', async () => {
      const account = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/redeliver');
      await emit(account);
      const [delivery] = await settled(account, 1);

      const response = await call(account, 'POST', `/v1/webhooks/${subscription.id}/deliveries/${delivery.id}/redeliver`);
      expect(response.status).toBe(202);
      expect(response.body.data).toEqual({ delivery_id: delivery.id, subscription_id: subscription.id, status: 'pending', requested_at: expect.stringMatching(ISO) });
      await waitFor(() => deliveriesOf(account), (rows) => rows[0].attempt === 2 && rows[0].status === 'succeeded', 'the redelivered attempt');

      const received = receiver.at('/redeliver');
      expect(received.map((r) => r.headers['webhook-id'])).toEqual([delivery.id, delivery.id]);
      expect(new Webhook(toStandardWebhooksSecret(subscription.secret)).verify(received[1].rawBody, headersOf(received[1]))).toBeDefined();
      const log = await call(account, 'GET', `/v1/webhooks/${subscription.id}/deliveries/${delivery.id}`);
      expect(log.body.data).toMatchObject({ status: 'succeeded', attempt_count: 2 });
      expect(log.body.data.attempts.map((a: any) => a.attempt)).toEqual([1, 2]);
    });
  });

  describe('Receiver answers (item 3)', () => {
    it('410 from the receiver disables the subscription (disabled_reason endpoint_gone on the webhook), no retry, and webhook_disabled is on the account\'s activity (operator API)', async () => {
      const account = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/gone');
      receiver.plan('/gone', 410);
      await emit(account);
      const [delivery] = await settled(account, 1);
      expect(delivery).toMatchObject({ status: 'failed', attempt: 1, response_status: 410 });
      expect(receiver.at('/gone')).toHaveLength(1);

      const listed = await call(account, 'GET', '/v1/webhooks');
      expect(listed.body.data).toEqual([expect.objectContaining({ id: subscription.id, disabled_reason: 'endpoint_gone' })]);
      const activity = await api.admin('GET', `/accounts/${account.account_id}/activity?type=webhook_disabled`);
      expect(activity.status).toBe(200);
      expect(activity.body.data).toEqual([expect.objectContaining({ type: 'webhook_disabled' })]);

      await emit(account); // a disabled subscription gets no new delivery
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await deliveriesOf(account)).toHaveLength(1);
      const redeliver = await call(account, 'POST', `/v1/webhooks/${subscription.id}/deliveries/${delivery.id}/redeliver`);
      expect({ status: redeliver.status, code: redeliver.body.code, details: redeliver.body.details }).toEqual({
        status: 422,
        code: 'business_rule_violation',
        details: { reason: 'webhook_disabled', disabled_reason: 'endpoint_gone' },
      });
    });

    it('429 with Retry-After is honoured: the next attempt waits that long', async () => {
      const account = await api.provision(webhooksBlueprint());
      await subscribe(account, '/later');
      receiver.plan('/later', { status: 429, headers: { 'retry-after': '2' } });
      await emit(account);
      const [delivery] = await waitFor(() => deliveriesOf(account), (rows) => rows[0]?.status === 'succeeded', 'the retried delivery', 20_000);
      const attempts = await sql.query<any>(`SELECT attempt, attempted_at, response_status FROM webhooks.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [delivery.id]);
      expect(attempts.map((a: any) => a.response_status)).toEqual([429, 200]);
      expect(new Date(attempts[1].attempted_at).getTime() - new Date(attempts[0].attempted_at).getTime()).toBeGreaterThanOrEqual(1900);
    });

    it('a 3xx is a failed attempt and the redirect is not followed', async () => {
      const account = await api.provision(webhooksBlueprint());
      await subscribe(account, '/moved');
      receiver.plan('/moved', { status: 302, headers: { location: receiver.url('/elsewhere') } });
      await emit(account);
      const [delivery] = await settled(account, 1);
      expect(delivery).toMatchObject({ status: 'succeeded', attempt: 2 });
      const attempts = await sql.query<any>(`SELECT response_status, error FROM webhooks.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [delivery.id]);
      expect(attempts[0]).toEqual({ response_status: 302, error: 'HTTP 302' });
      expect(receiver.at('/elsewhere')).toEqual([]);
    });

    it('a subscription failing every attempt for 5 days is disabled (failing_for_5_days) and webhook_disabled recorded', async () => {
      const account = await api.provision(webhooksBlueprint());
      const subscription = await subscribe(account, '/failing');
      await sql.query(`UPDATE webhooks.subscriptions SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1`, [subscription.id]);
      receiver.plan('/failing', 500);
      await emit(account);
      const [delivery] = await settled(account, 1);
      expect(delivery).toMatchObject({ status: 'failed', attempt: 1 });
      const listed = await call(account, 'GET', '/v1/webhooks');
      expect(listed.body.data[0]).toMatchObject({ id: subscription.id, disabled_reason: 'failing_for_5_days' });
      const activity = await api.admin('GET', `/accounts/${account.account_id}/activity?type=webhook_disabled`);
      expect(activity.body.data).toEqual([expect.objectContaining({ type: 'webhook_disabled' })]);
    });
  });
});
