import { INestApplicationContext } from '@nestjs/common';
import { createLeadflowClient, LeadflowClient, LeadflowWebhookVerificationError, verifyWebhook } from '@leadflow/sdk';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the worker app delivers the webhooks, as in webhooks-delivery.e2e-spec.ts
import { createWorker } from '../../worker/src/bootstrap';
import { TestApi } from './support/test-api';
import { generateCertificate, HttpsReceiver, ReceivedWebhook, TestCertificate, webhooksBlueprint } from './support/webhooks-fixtures';

async function waitFor<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The SDK's `verifyWebhook` (issue 16 item 5) on real deliveries: the api listens on a real port, the
 * SDK creates the subscription and the contact, the real worker (outbox relay, fan-out, delivery
 * processor) POSTs the signed event to a real HTTPS receiver on 127.0.0.1, and the receiver side verifies
 * the bytes and headers it got. Real PostgreSQL and Redis.
 */
describe('SDK verifyWebhook on real deliveries (real worker, HTTPS receiver on loopback)', () => {
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let api: TestApi;
  let worker: INestApplicationContext;
  let delivery: ReceivedWebhook;
  let secret: string;
  let deliveryId: string;
  let subscriptionId: string;
  let client: LeadflowClient;

  beforeAll(async () => {
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    const env = { WEBHOOK_CA_FILE: certificate.certFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    api = await TestApi.start(env);
    await api.app.listen(0, '127.0.0.1');
    worker = await createWorker(api.services.config({ ...env, OUTBOX_RELAY_INTERVAL_MS: '20', WEBHOOK_RETRY_BASE_MS: '1' }));

    const account = await api.provision(webhooksBlueprint());
    client = createLeadflowClient({ apiKey: account.api_keys.full.key, baseUrl: await api.app.getUrl() });
    const subscription = await client.post('/v1/webhooks', { body: { url: receiver.url('/sdk'), events: ['contact_created'] } });
    secret = subscription.data.secret;
    subscriptionId = subscription.data.id;
    await client.post('/v1/contacts', { body: { email: 'nadia.tremblay@example.com', first_name: 'Nadia' } });
    [delivery] = await waitFor(() => receiver.at('/sdk'), (received) => received.length >= 1, 'the contact_created delivery');
    deliveryId = String(delivery.headers['x-service-delivery']);
  });
  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await receiver?.stop();
    await api?.close();
    certificate?.remove();
  });

  it('verifies the delivery as received (raw body, Node headers, the secret shown at creation) and answers its parsed body', () => {
    const event = verifyWebhook({ payload: delivery.rawBody, headers: delivery.headers, secret });
    expect(event).toMatchObject({ event: 'contact_created', id: deliveryId, data: { contact: { email: 'nadia.tremblay@example.com' }, actor: { via: 'api_key', name: 'full' } } });
  });

  it('verifies from the raw bytes and a fetch Headers object too', () => {
    const headers = new Headers(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)] as [string, string]));
    expect(verifyWebhook({ payload: Buffer.from(delivery.rawBody, 'utf8'), headers, secret }).id).toBe(deliveryId);
  });

  it('a body altered after signing, or another secret, is refused (mismatch)', () => {
    const altered = delivery.rawBody.replace('nadia.tremblay', 'nadia.tremblai');
    expect(() => verifyWebhook({ payload: altered, headers: delivery.headers, secret })).toThrow(expect.objectContaining({ reason: 'mismatch' }));
    expect(() => verifyWebhook({ payload: delivery.rawBody, headers: delivery.headers, secret: 'f'.repeat(64) })).toThrow(LeadflowWebhookVerificationError);
  });

  it('a delivery replayed later than the tolerance is refused (expired)', () => {
    const later = new Date(Date.now() + 301_000);
    expect(() => verifyWebhook({ payload: delivery.rawBody, headers: delivery.headers, secret, now: later })).toThrow(expect.objectContaining({ reason: 'expired' }));
  });

  it('X-Service-Signature alone verifies, and so do the Standard Webhooks headers alone (webhook-id = the delivery id); a forged webhook-id is a mismatch', () => {
    const { 'webhook-id': id, 'webhook-signature': standard, ...leadflowOnly } = delivery.headers;
    expect(verifyWebhook({ payload: delivery.rawBody, headers: leadflowOnly, secret }).id).toBe(deliveryId);
    expect(id).toBe(deliveryId);
    expect(standard).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const { 'x-service-signature': _leadflow, ...standardOnly } = delivery.headers;
    expect(verifyWebhook({ payload: delivery.rawBody, headers: standardOnly, secret }).id).toBe(deliveryId);
    expect(() => verifyWebhook({ payload: delivery.rawBody, headers: { ...delivery.headers, 'webhook-id': 'msg_forged' }, secret })).toThrow(
      expect.objectContaining({ reason: 'mismatch' }),
    );
  });

  it('the Standard Webhooks form of the secret (whsec_ + base64 of its text) verifies the same delivery', () => {
    const whsec = `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;
    expect(verifyWebhook({ payload: delivery.rawBody, headers: delivery.headers, secret: whsec }).id).toBe(deliveryId);
  });

  it('the delivery log (GET /v1/webhooks/{id}/deliveries, walked with paginate) lists the verified delivery as succeeded', async () => {
    // The receiver answered before the worker recorded the outcome: wait for the log to say so.
    await waitFor(
      () => client.get('/v1/webhooks/{id}/deliveries/{delivery_id}', { params: { path: { id: subscriptionId, delivery_id: deliveryId } } }),
      (delivery) => delivery.data.status === 'succeeded',
      'the delivery recorded as succeeded',
    );
    const logged: { id: string; status: string }[] = [];
    for await (const item of client.paginate('/v1/webhooks/{id}/deliveries', { params: { path: { id: subscriptionId }, query: { limit: 1 } } })) logged.push(item);
    expect(logged).toContainEqual(expect.objectContaining({ id: deliveryId, status: 'succeeded' }));
  });

  it('after POST /v1/webhooks/{id}/rotate-secret, a new delivery verifies with the new secret and, during the overlap, with the previous one', async () => {
    const rotated = await client.post('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: subscriptionId } } });
    expect(rotated.data.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.data.secret).not.toBe(secret);
    await client.post('/v1/contacts', { body: { email: 'apres.rotation@example.com' } });
    const received = await waitFor(() => receiver.at('/sdk'), (all) => all.some((request) => request.rawBody.includes('apres.rotation@example.com')), 'the delivery after rotation');
    const after = received.find((request) => request.rawBody.includes('apres.rotation@example.com'))!;
    expect(verifyWebhook({ payload: after.rawBody, headers: after.headers, secret: rotated.data.secret }).event).toBe('contact_created');
    expect(verifyWebhook({ payload: after.rawBody, headers: after.headers, secret }).event).toBe('contact_created');
    expect(() => verifyWebhook({ payload: after.rawBody, headers: after.headers, secret: 'e'.repeat(64) })).toThrow(expect.objectContaining({ reason: 'mismatch' }));
  });
});
