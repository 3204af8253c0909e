import type { INestApplicationContext } from '@nestjs/common';
import { FixedClock } from '@leadflow/shared-kernel';
import { IDEMPOTENCY_TTL_MS, IdempotencyKeyPurger, operatorIdempotencyScope, SecretCipher } from '@leadflow/shared-platform';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the worker app under test (its purge), as in webhooks-delivery.e2e-spec.ts
import { createWorker } from '../../worker/src/bootstrap';
import { expectStatus } from './support/contacts-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';
import { PUBLIC_TARGET, webhooksBlueprint } from './support/webhooks-fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies and rows are asserted field by field */

/**
 * Every creating call is safe to retry (docs/adr/0002-idempotent-creates-with-secrets.md): the routes whose
 * answer carries a secret (`POST /v1/webhooks`, `POST /v1/webhooks/{id}/rotate-secret`, and the operator's
 * creating `POST /admin/v1` routes, which issue API keys) honour `Idempotency-Key`; the stored replay is
 * encrypted at rest with `SECRET_ENCRYPTION_KEY` and erased by the worker once its 24 hours have passed;
 * operator keys live in the operator token's scope, never an account's. Real PostgreSQL and Redis.
 */
describe('Idempotent creates with secrets', () => {
  let api: TestApi;
  let sql: ReturnType<typeof sqlOf>;
  let cipher: SecretCipher;
  const clock = new FixedClock(new Date('2027-05-03T09:00:00.000Z'));
  let seq = 0;

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    sql = sqlOf(api);
    cipher = api.app.get(SecretCipher);
  });
  afterAll(() => api.close());

  const provision = () => api.provision(webhooksBlueprint());
  const tokenOf = (account: ProvisionedAccount) => account.api_keys.full.key;
  const keyed = (key: string) => ({ 'idempotency-key': key });
  const createWebhook = (token: string, key: string, body: unknown = { url: PUBLIC_TARGET, events: '*' }) =>
    api.request({ method: 'POST', path: '/v1/webhooks', token, body, headers: keyed(key) });
  const rotate = (token: string, id: string, key: string) => api.request({ method: 'POST', path: `/v1/webhooks/${id}/rotate-secret`, token, headers: keyed(key) });
  const adminPost = (path: string, body: unknown, key: string) =>
    api.request({ method: 'POST', path: `/admin/v1${path}`, token: TEST_ADMIN_TOKEN, body, headers: keyed(key) });
  const subscriptionsOf = (account: ProvisionedAccount) =>
    sql.query<any>(`SELECT id, secret_ciphertext, previous_secret_ciphertext FROM webhooks.subscriptions WHERE account_id = $1 ORDER BY created_at, id`, [account.account_id]);
  /** The stored key rows of `key`, whatever their scope, as text (every column). */
  const storedRows = (key: string) => sql.query<any>(`SELECT k.*, row_to_json(k)::text AS as_text FROM platform.idempotency_keys k WHERE key = $1`, [key]);
  const expectConflict = (response: TestResponse) =>
    expect({ status: response.status, code: response.body.code, type: response.body.type, details: response.body.details }).toEqual({
      status: 409,
      code: 'idempotency_conflict',
      type: 'conflict_error',
      details: { reason: 'payload_mismatch' },
    });
  const nextKey = (name: string) => `${name}-${++seq}`;

  describe('POST /v1/webhooks', () => {
    it('a retried POST /v1/webhooks with the same Idempotency-Key returns the original 201 with the same secret and creates one subscription', async () => {
      const account = await provision();
      const key = nextKey('webhook');

      const first = expectStatus(await createWebhook(tokenOf(account), key), 201);
      const retry = expectStatus(await createWebhook(tokenOf(account), key), 201);

      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.raw.body).toBe(first.raw.body);
      expect(retry.body.data.secret).toMatch(/^[0-9a-f]{64}$/);
      const rows = await subscriptionsOf(account);
      expect(rows.map((row) => row.id)).toEqual([first.body.data.id]);
      expect(cipher.decrypt(rows[0].secret_ciphertext)).toBe(retry.body.data.secret);
    });

    it('the stored replay of a webhook secret is encrypted at rest (the raw secret is not in the idempotency table)', async () => {
      const account = await provision();
      const key = nextKey('webhook-at-rest');
      const { secret } = expectStatus(await createWebhook(tokenOf(account), key), 201).body.data;

      const [row] = await storedRows(key);
      expect(row).toMatchObject({ account_id: account.account_id, state: 'completed', response_status: 201 });
      expect(row.as_text).not.toContain(secret);
      expect(row.response_body).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(JSON.parse(cipher.decrypt(row.response_body)).data.secret).toBe(secret);
    });

    it('same key other payload: 409 idempotency_conflict (details.reason payload_mismatch), nothing written', async () => {
      const account = await provision();
      const key = nextKey('webhook-conflict');
      const first = expectStatus(await createWebhook(tokenOf(account), key), 201);
      const stored = await storedRows(key);

      const conflict = await createWebhook(tokenOf(account), key, { url: `${PUBLIC_TARGET}/other`, events: ['lead_created'] });

      expectConflict(conflict);
      expect(conflict.body.data).toBeUndefined();
      expect((await subscriptionsOf(account)).map((row) => row.id)).toEqual([first.body.data.id]);
      expect(await storedRows(key)).toEqual(stored);
    });

    it('a refused creation is not stored: the key stays usable (400 then 201 with the same key)', async () => {
      const account = await provision();
      const key = nextKey('webhook-refused');

      const refused = await createWebhook(tokenOf(account), key, { url: 'http://93.184.215.14/plain', events: '*' });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 'validation_error' });
      expect(await storedRows(key)).toEqual([]);
      expect(await subscriptionsOf(account)).toEqual([]);

      expectStatus(await createWebhook(tokenOf(account), key), 201);
      expect(await subscriptionsOf(account)).toHaveLength(1);
    });
  });

  describe('POST /v1/webhooks/{id}/rotate-secret', () => {
    it('a retried rotation with the same Idempotency-Key returns the original 200 with the same new secret and rotates once', async () => {
      const account = await provision();
      const created = expectStatus(await createWebhook(tokenOf(account), nextKey('rotate-create')), 201).body.data;
      const key = nextKey('rotate');

      const first = expectStatus(await rotate(tokenOf(account), created.id, key), 200);
      const retry = expectStatus(await rotate(tokenOf(account), created.id, key), 200);

      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.raw.body).toBe(first.raw.body);
      expect(first.body.data.secret).not.toBe(created.secret);
      const [row] = await subscriptionsOf(account);
      expect(cipher.decrypt(row.secret_ciphertext)).toBe(first.body.data.secret);
      // rotated once: the secret before the rotation is the creation's, not the first rotation's
      expect(cipher.decrypt(row.previous_secret_ciphertext)).toBe(created.secret);
      expect((await storedRows(key))[0].as_text).not.toContain(first.body.data.secret);
    });

    it("the same key on another subscription's rotation: 409 idempotency_conflict, that subscription's secret unchanged", async () => {
      const account = await provision();
      const one = expectStatus(await createWebhook(tokenOf(account), nextKey('rotate-one')), 201).body.data;
      const two = expectStatus(await createWebhook(tokenOf(account), nextKey('rotate-two')), 201).body.data;
      const key = nextKey('rotate-conflict');
      expectStatus(await rotate(tokenOf(account), one.id, key), 200);

      expectConflict(await rotate(tokenOf(account), two.id, key));

      const row = (await subscriptionsOf(account)).find((subscription) => subscription.id === two.id);
      expect(cipher.decrypt(row.secret_ciphertext)).toBe(two.secret);
      expect(row.previous_secret_ciphertext).toBeNull();
    });
  });

  describe('operator API (creating POST /admin/v1 routes)', () => {
    const blueprint = (name: string) => ({ name, api_terms_accepted: true, api_keys: [{ name: 'full', preset: 'full_integration' }] });
    const accountsNamed = async (name: string) => (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM accounts.accounts WHERE name = $1`, [name]))[0].n;

    it('a retried POST /admin/v1/accounts provisions one account and replays the same API key, stored encrypted in the operator scope', async () => {
      const name = `Idem provision ${++seq}`;
      const key = nextKey('provision');

      const first = expectStatus(await adminPost('/accounts', blueprint(name), key), 201);
      const retry = expectStatus(await adminPost('/accounts', blueprint(name), key), 201);

      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.raw.body).toBe(first.raw.body);
      expect(await accountsNamed(name)).toBe(1);
      const issued = first.body.api_keys.full.key;
      expect((await api.request({ path: '/v1/me', token: issued })).status).toBe(200);
      const [row] = await storedRows(key);
      expect(row.account_id).toBe(operatorIdempotencyScope(TEST_ADMIN_TOKEN));
      expect(row.as_text).not.toContain(issued);
    });

    it('POST /admin/v1/accounts, same key other payload: 409 idempotency_conflict, no account written', async () => {
      const key = nextKey('provision-conflict');
      const name = `Idem conflict ${++seq}`;
      expectStatus(await adminPost('/accounts', blueprint(name), key), 201);
      const accounts = await sql.count('accounts.accounts');

      expectConflict(await adminPost('/accounts', blueprint(`${name} bis`), key));

      expect(await sql.count('accounts.accounts')).toBe(accounts);
      expect(await accountsNamed(`${name} bis`)).toBe(0);
    });

    it('a retried POST /admin/v1/accounts/{id}/api-keys issues one key and replays it', async () => {
      const account = await provision();
      const keys = await sql.count('accounts.api_keys', account.account_id);
      const key = nextKey('api-key');

      const first = expectStatus(await adminPost(`/accounts/${account.account_id}/api-keys`, { name: 'retried', preset: 'lead_capture' }, key), 201);
      const retry = expectStatus(await adminPost(`/accounts/${account.account_id}/api-keys`, { name: 'retried', preset: 'lead_capture' }, key), 201);

      expect(retry.raw.body).toBe(first.raw.body);
      expect(await sql.count('accounts.api_keys', account.account_id)).toBe(keys + 1);
      expect((await storedRows(key))[0].as_text).not.toContain(first.body.key);
    });

    it("operator keys are scoped to the operator token: the same key an account's API key used neither replays nor conflicts", async () => {
      const account = await provision();
      const key = nextKey('shared');
      const webhook = expectStatus(await createWebhook(tokenOf(account), key), 201);
      const name = `Idem shared ${seq}`;

      const provisioned = expectStatus(await adminPost('/accounts', blueprint(name), key), 201);

      expect(provisioned.headers['idempotent-replayed']).toBeUndefined();
      expect(provisioned.body.account_id).not.toBe(webhook.body.data.id);
      expect(await accountsNamed(name)).toBe(1);
      // and the account's key still replays its own answer
      expect((await createWebhook(tokenOf(account), key)).raw.body).toBe(webhook.raw.body);
      const scopes = (await storedRows(key)).map((row) => row.account_id).sort();
      expect(scopes).toEqual([account.account_id, operatorIdempotencyScope(TEST_ADMIN_TOKEN)].sort());
      // the operator scope is a version 8 UUID; account ids are version 7, so the two never meet
      expect(operatorIdempotencyScope(TEST_ADMIN_TOKEN)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(account.account_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
      expect(operatorIdempotencyScope('another token')).not.toBe(operatorIdempotencyScope(TEST_ADMIN_TOKEN));
    });

    it('a malformed key on a creating operator route answers 400 invalid_request (details.field Idempotency-Key, reason invalid_format), no account written', async () => {
      const name = `Idem malformed ${++seq}`;
      const response = await adminPost('/accounts', blueprint(name), 'k'.repeat(65));

      expect({ status: response.status, code: response.body.code, details: response.body.details }).toEqual({
        status: 400,
        code: 'invalid_request',
        details: { field: 'Idempotency-Key', reason: 'invalid_format' },
      });
      expect(await accountsNamed(name)).toBe(0);
    });
  });

  describe('expiry', () => {
    let worker: INestApplicationContext | undefined;
    afterAll(async () => {
      await worker?.close();
    });

    it("expired replay rows are erased: after the key's 24 hours the worker's purge deletes them (a live key is kept)", async () => {
      const account = await provision();
      const expiring = nextKey('expiring');
      expectStatus(await createWebhook(tokenOf(account), expiring), 201);
      expectStatus(await adminPost('/accounts', blueprint(`Idem expiring ${seq}`), expiring), 201);
      expect(await storedRows(expiring)).toHaveLength(2);

      clock.advance(IDEMPOTENCY_TTL_MS);
      const live = nextKey('live');
      expectStatus(await createWebhook(tokenOf(account), live, { url: `${PUBLIC_TARGET}/live`, events: '*' }), 201);
      // expired, the rows are no longer replayed but still on disk until the purge...
      expect(await storedRows(expiring)).toHaveLength(2);
      worker = await createWorker(api.services.config(), clock);

      const erased = await worker.get(IdempotencyKeyPurger).purge();

      // ...and erased by the worker, the encrypted replay with them
      expect(erased).toBeGreaterThanOrEqual(2);
      expect(await storedRows(expiring)).toEqual([]);
      expect(await storedRows(live)).toHaveLength(1);
    });

    function blueprint(name: string) {
      return { name, api_terms_accepted: true, api_keys: [{ name: 'full', preset: 'full_integration' }] };
    }
  });
});
