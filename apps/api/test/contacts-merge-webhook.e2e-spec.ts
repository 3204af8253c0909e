import { INestApplicationContext } from '@nestjs/common';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the worker app under test, as in webhooks-delivery.e2e-spec.ts
import { createWorker } from '../../worker/src/bootstrap';
import { createContact, expectStatus } from './support/contacts-fixtures';
import { sqlOf } from './support/sql';
import { TestApi } from './support/test-api';
import { generateCertificate, HttpsReceiver, signatureMatches, TestCertificate, webhooksBlueprint } from './support/webhooks-fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies are asserted field by field */

/** Settings of the worker under test: a fast relay. */
const WORKER_ENV = { OUTBOX_RELAY_INTERVAL_MS: '20', WEBHOOK_RETRY_BASE_MS: '1', WEBHOOK_SWEEP_INTERVAL_MS: '100' };

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * `POST /v1/contacts/{id}/merge` emits `contact_merged` to webhooks (issue 15, item 6): through the real
 * worker (outbox relay, webhooks fan-out, delivery) to a real HTTPS receiver on loopback.
 */
describe('contact_merged webhook (real worker, HTTPS receiver on loopback)', () => {
  let certificate: TestCertificate;
  let receiver: HttpsReceiver;
  let api: TestApi;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    const env = { WEBHOOK_CA_FILE: certificate.certFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    api = await TestApi.start(env);
    worker = await createWorker(api.services.config({ ...env, ...WORKER_ENV }));
  });
  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await receiver?.stop();
    await api?.close();
    certificate?.remove();
  });

  it('a subscription to contact_merged receives one signed delivery with the merged and surviving ids and the report; a dry run sends nothing', async () => {
    const account = await api.provision(webhooksBlueprint());
    const token = account.api_keys.full.key;
    const subscription = expectStatus(
      await api.request({ method: 'POST', path: '/v1/webhooks', token, body: { url: receiver.url('/merged'), events: ['contact_merged'] } }),
      201,
    ).body.data;
    const survivor = await createContact(api, token, { email: 'julie.tremblay@example.com', first_name: 'Julie' });
    const merged = await createContact(api, token, { phone: '418 555-0123', company: 'Toitures Tremblay' });

    expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${merged.id}/merge`, token, body: { into: survivor.id, dry_run: true } }), 200);
    const report = expectStatus(await api.request({ method: 'POST', path: `/v1/contacts/${merged.id}/merge`, token, body: { into: survivor.id } }), 200).body.data;

    const sql = sqlOf(api);
    const [delivery] = await waitFor(
      () => sql.query<any>(`SELECT id, status FROM webhooks.deliveries WHERE account_id = $1`, [account.account_id]),
      (rows) => rows.length >= 1 && rows.every((row) => row.status === 'succeeded' || row.status === 'failed'),
      'the contact_merged delivery',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const received = receiver.at('/merged');
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(delivery.status).toBe('succeeded');
    expect(request.headers['x-service-event']).toBe('contact_merged');
    expect(signatureMatches(request.headers['x-service-signature'], request.rawBody, subscription.secret)).toBe(true);
    expect(request.body).toMatchObject({
      event: 'contact_merged',
      data: {
        contact_id: merged.id,
        into_contact_id: survivor.id,
        survivor: { id: survivor.id, phone: '+14185550123', company: 'Toitures Tremblay' },
        fields: report.fields,
        identities: report.identities,
      },
    });
  });
});
