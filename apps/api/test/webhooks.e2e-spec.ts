import { createDecipheriv } from 'node:crypto';
import { AppConfig } from '@leadflow/shared-platform';
import { WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import { createContact, expectStatus } from './support/contacts-fixtures';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi } from './support/test-api';
import { PUBLIC_TARGET, webhooksBlueprint } from './support/webhooks-fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- bodies and rows are asserted field by field */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * `/v1/webhooks` and `/v1/webhook-events` (public-api-v1 › Endpoints › Webhooks, Authentication 7,
 * Limits) and `GET /admin/v1/accounts/{id}/webhook-deliveries`, on real PostgreSQL and Redis.
 * Deliveries themselves: apps/worker/test/webhook-delivery.integration-spec.ts.
 */
describe('Webhooks API', () => {
  let api: TestApi;
  let sql: ReturnType<typeof sqlOf>;

  const provision = (extra: Record<string, unknown> = {}) => api.provision(webhooksBlueprint(extra));
  const tokenOf = (account: ProvisionedAccount, name = 'full') => account.api_keys[name].key;
  const create = (token: string, body: unknown) => api.request({ method: 'POST', path: '/v1/webhooks', token, body });
  const list = (token: string) => api.request({ path: '/v1/webhooks', token });
  const remove = (token: string, id: string) => api.request({ method: 'DELETE', path: `/v1/webhooks/${id}`, token });
  const samples = (token: string, query: Record<string, string> = {}) => api.request({ path: '/v1/webhook-events', token, query });
  const rowsOf = (account: ProvisionedAccount) =>
    sql.query<any>(`SELECT * FROM webhooks.subscriptions WHERE account_id = $1 ORDER BY created_at, id`, [account.account_id]);
  const expectValidation = (response: any, details: unknown) => {
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_error');
    expect(response.body.details).toEqual(details);
  };

  beforeAll(async () => {
    api = await TestApi.start();
    sql = sqlOf(api);
  });
  afterAll(() => api.close());

  describe('POST /v1/webhooks', () => {
    it('creates a subscription: 201 { data: { id, url, events, secret (64 hex, shown once), created_at } } owned by the calling key', async () => {
      const account = await provision();

      const response = await create(tokenOf(account), { url: PUBLIC_TARGET, events: ['lead_created', 'lead_updated', 'lead_created'] });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        data: { id: expect.any(String), url: PUBLIC_TARGET, events: ['lead_created', 'lead_updated'], secret: expect.stringMatching(/^[0-9a-f]{64}$/), created_at: expect.stringMatching(ISO), disabled_reason: null },
      });
      const [row] = await rowsOf(account);
      expect(row).toMatchObject({ id: response.body.data.id, api_key_id: account.api_keys.full.id, url: PUBLIC_TARGET, all_events: false, events: ['lead_created', 'lead_updated'] });
    });

    it('encrypts the secret at rest with AES-256-GCM under SECRET_ENCRYPTION_KEY (never stored in clear)', async () => {
      const account = await provision();
      const { secret } = expectStatus(await create(tokenOf(account), { url: PUBLIC_TARGET, events: '*' }), 201).body.data;

      const [row] = await rowsOf(account);
      expect(JSON.stringify(row)).not.toContain(secret);
      const [version, iv, tag, ciphertext] = row.secret_ciphertext.split('.');
      expect(version).toBe('v1');
      const decipher = createDecipheriv('aes-256-gcm', api.app.get(AppConfig).secretEncryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      expect(Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')).toBe(secret);
    });

    it('events "*" and ["*"] both subscribe to every catalog event and read back as "*"', async () => {
      const account = await provision();

      const star = expectStatus(await create(tokenOf(account), { url: PUBLIC_TARGET, events: '*' }), 201).body.data;
      const array = expectStatus(await create(tokenOf(account), { url: PUBLIC_TARGET, events: ['*'] }), 201).body.data;

      expect(star.events).toBe('*');
      expect(array.events).toBe('*');
      expect((await rowsOf(account)).map((row) => [row.all_events, row.events])).toEqual([
        [true, []],
        [true, []],
      ]);
    });

    it('https only: an http:// url is refused with 400 validation_error url https_required, nothing written', async () => {
      const account = await provision();

      const response = await create(tokenOf(account), { url: 'http://93.184.215.14/hook', events: '*' });

      expectValidation(response, [{ field: 'url', reason: 'https_required', message: expect.any(String) }]);
      expect(await rowsOf(account)).toEqual([]);
    });

    it.each([
      ['missing url', { events: '*' }, [{ field: 'url', reason: 'required' }]],
      ['url not a string', { url: 42, events: '*' }, [{ field: 'url', reason: 'invalid_format' }]],
      ['url not a URL', { url: 'hooks.example.com/x', events: '*' }, [{ field: 'url', reason: 'invalid_format' }]],
      ['url with credentials', { url: 'https://user:pw@93.184.215.14/x', events: '*' }, [{ field: 'url', reason: 'invalid_format' }]],
      ['url over 2048 characters', { url: `https://93.184.215.14/${'a'.repeat(2048)}`, events: '*' }, [{ field: 'url', reason: 'invalid_format' }]],
      ['missing events', { url: PUBLIC_TARGET }, [{ field: 'events', reason: 'required' }]],
      ['empty events', { url: PUBLIC_TARGET, events: [] }, [{ field: 'events', reason: 'invalid_value' }]],
      ['events a string other than *', { url: PUBLIC_TARGET, events: 'lead_created' }, [{ field: 'events', reason: 'invalid_value' }]],
      ['events an object', { url: PUBLIC_TARGET, events: { a: 1 } }, [{ field: 'events', reason: 'invalid_value' }]],
      ['"*" mixed with names', { url: PUBLIC_TARGET, events: ['*', 'lead_created'] }, [{ field: 'events', reason: 'invalid_value' }]],
      ['a name outside the catalog', { url: PUBLIC_TARGET, events: ['lead_created', 'contact_archived'] }, [{ field: 'events[1]', reason: 'unknown_event_type' }]],
      ['a non-string name', { url: PUBLIC_TARGET, events: [7] }, [{ field: 'events[0]', reason: 'invalid_value' }]],
      ['both url and events wrong', { url: 'ftp://x', events: [] }, [{ field: 'url', reason: 'https_required' }, { field: 'events', reason: 'invalid_value' }]],
    ])('events and url rules: %s gives 400 validation_error, nothing written', async (_, body, details) => {
      const account = await provision();

      const response = await create(tokenOf(account), body);

      expectValidation(response, details.map((detail) => ({ ...detail, message: expect.any(String) })));
      expect(await rowsOf(account)).toEqual([]);
    });

    it('refuses an unknown body member (400 validation_error unknown_field), invalid JSON (400) and a missing Content-Type (415)', async () => {
      const account = await provision();
      const token = tokenOf(account);

      const unknown = await create(token, { url: PUBLIC_TARGET, events: '*', secret: 'mine' });
      const badJson = await api.request({ method: 'POST', path: '/v1/webhooks', token, rawBody: '{"url":', headers: { 'content-type': 'application/json' } });
      const noType = await api.request({ method: 'POST', path: '/v1/webhooks', token, rawBody: JSON.stringify({ url: PUBLIC_TARGET, events: '*' }) });

      expect(unknown.status).toBe(400);
      expect(unknown.body.details).toEqual([expect.objectContaining({ field: 'secret', reason: 'unknown_field' })]);
      expect(badJson.status).toBe(400);
      expect(noType.status).toBe(415);
      expect(await rowsOf(account)).toEqual([]);
    });

    it.each([
      ['loopback IPv4', 'https://127.0.0.1/hook'],
      ['loopback elsewhere in 127/8', 'https://127.1.2.3:8443/hook'],
      ['private 10/8', 'https://10.1.2.3/hook'],
      ['private 172.16/12', 'https://172.16.5.4/hook'],
      ['private 192.168/16', 'https://192.168.1.10/hook'],
      ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
      ['carrier-grade NAT', 'https://100.64.0.1/hook'],
      ['unspecified', 'https://0.0.0.0/hook'],
      ['multicast', 'https://224.0.0.1/hook'],
      ['loopback IPv6', 'https://[::1]/hook'],
      ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hook'],
      ['IPv4-compatible IPv6 loopback, hex form (issue 12 item 10)', 'https://[::7f00:1]/hook'],
      ['IPv4-compatible IPv6 loopback, dotted form (issue 12 item 10)', 'https://[::127.0.0.1]/hook'],
      ['unique-local IPv6', 'https://[fd00::1]/hook'],
      ['link-local IPv6', 'https://[fe80::1]/hook'],
      ['a hostname resolving to loopback (localhost)', 'https://localhost/hook'],
    ])('SSRF guard: a target on a non-public address is refused (400 validation_error url non_public_target): %s', async (_, url) => {
      const account = await provision();

      const response = await create(tokenOf(account), { url, events: '*' });

      expectValidation(response, [{ field: 'url', reason: 'non_public_target', message: expect.any(String) }]);
      expect(await rowsOf(account)).toEqual([]);
    });

    it('SSRF guard: a host that does not resolve is refused (400 validation_error url unresolvable_host)', async () => {
      const account = await provision();

      const response = await create(tokenOf(account), { url: 'https://no-such-host.invalid/hook', events: '*' });

      expectValidation(response, [{ field: 'url', reason: 'unresolvable_host', message: expect.any(String) }]);
      expect(await rowsOf(account)).toEqual([]);
    });

    it('at most 10 subscriptions per account across keys: the 11th gives 429 subscription_limit_reached, whichever key asks', async () => {
      const account = await provision();
      for (let i = 0; i < 6; i++) expectStatus(await create(tokenOf(account), { url: `${PUBLIC_TARGET}/${i}`, events: '*' }), 201);
      for (let i = 6; i < 10; i++) expectStatus(await create(tokenOf(account, 'other'), { url: `${PUBLIC_TARGET}/${i}`, events: '*' }), 201);

      const byFull = await create(tokenOf(account), { url: `${PUBLIC_TARGET}/x`, events: '*' });
      const byOther = await create(tokenOf(account, 'other'), { url: `${PUBLIC_TARGET}/y`, events: '*' });

      for (const response of [byFull, byOther]) {
        expect(response.status).toBe(429);
        expect(response.body).toMatchObject({ code: 'subscription_limit_reached', type: 'rate_limit_error', details: { limit: 10 } });
      }
      expect(await rowsOf(account)).toHaveLength(10);
      // another account is not affected
      expectStatus(await create(tokenOf(await provision()), { url: PUBLIC_TARGET, events: '*' }), 201);
    });

    it('the 10-per-account cap holds under concurrent creations (per-account lock): 15 at once give ten 201 and five 429', async () => {
      const account = await provision();

      const responses = await Promise.all(
        Array.from({ length: 15 }, (_, i) => create(tokenOf(account, i % 2 ? 'other' : 'full'), { url: `${PUBLIC_TARGET}/${i}`, events: ['lead_created'] })),
      );

      expect(responses.filter((r) => r.status === 201)).toHaveLength(10);
      expect(responses.filter((r) => r.status === 429 && r.body.code === 'subscription_limit_reached')).toHaveLength(5);
      expect(await rowsOf(account)).toHaveLength(10);
    });

    it('needs scope webhooks:manage (403 insufficient_scope) and the webhooks module (403 feature_not_available)', async () => {
      const account = await provision();
      const withoutModule = await provision({ features: ['public_api', 'quotes'] });

      const noScope = await create(tokenOf(account, 'reader'), { url: PUBLIC_TARGET, events: '*' });
      const noModule = await create(tokenOf(withoutModule), { url: PUBLIC_TARGET, events: '*' });

      expect(noScope.status).toBe(403);
      expect(noScope.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'webhooks:manage' } });
      expect(noModule.status).toBe(403);
      expect(noModule.body).toMatchObject({ code: 'feature_not_available', details: { feature: 'webhooks' } });
      expect(await rowsOf(account)).toEqual([]);
      expect(await rowsOf(withoutModule)).toEqual([]);
    });
  });

  describe('GET and DELETE /v1/webhooks', () => {
    it('lists only the calling key\'s subscriptions, newest first, never the secret, unpaginated', async () => {
      const account = await provision();
      const first = expectStatus(await create(tokenOf(account), { url: `${PUBLIC_TARGET}/1`, events: ['lead_created'] }), 201).body.data;
      api.clock.advance(1000);
      const second = expectStatus(await create(tokenOf(account), { url: `${PUBLIC_TARGET}/2`, events: '*' }), 201).body.data;
      expectStatus(await create(tokenOf(account, 'other'), { url: `${PUBLIC_TARGET}/3`, events: '*' }), 201);

      const response = await list(tokenOf(account));

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: [
          { id: second.id, url: `${PUBLIC_TARGET}/2`, events: '*', created_at: second.created_at, disabled_reason: null },
          { id: first.id, url: `${PUBLIC_TARGET}/1`, events: ['lead_created'], created_at: first.created_at, disabled_reason: null },
        ],
        pagination: { next_cursor: null, has_more: false, limit: 2, total_count: 2 },
      });
      expect(JSON.stringify(response.body)).not.toContain(first.secret);
    });

    it('subscriptions are owned by the creating key: another key of the same account neither lists nor deletes them (404 not_found)', async () => {
      const account = await provision();
      const mine = expectStatus(await create(tokenOf(account), { url: PUBLIC_TARGET, events: '*' }), 201).body.data;

      const listed = await list(tokenOf(account, 'other'));
      const deleted = await remove(tokenOf(account, 'other'), mine.id);

      expect(listed.body.data).toEqual([]);
      expect(deleted.status).toBe(404);
      expect(deleted.body).toMatchObject({ code: 'not_found', details: { resource: 'webhook' } });
      expect(await rowsOf(account)).toHaveLength(1);
    });

    it('tenant isolation: another account\'s subscription id answers exactly like a missing one', async () => {
      const owner = await provision();
      const stranger = await provision();
      const theirs = expectStatus(await create(tokenOf(owner), { url: PUBLIC_TARGET, events: '*' }), 201).body.data;

      const foreign = await remove(tokenOf(stranger), theirs.id);
      const missing = await remove(tokenOf(stranger), '00000000-0000-4000-8000-000000000000');
      const notUuid = await remove(tokenOf(stranger), 'not-a-uuid');

      for (const response of [foreign, missing, notUuid]) {
        expect(response.status).toBe(404);
        expect({ ...response.body, request_id: null }).toEqual({ ...missing.body, request_id: null });
      }
      expect((await list(tokenOf(stranger))).body.data).toEqual([]);
      expect(await rowsOf(owner)).toHaveLength(1);
    });

    it('DELETE is permanent: 204 without body, gone from the list and the database, a second DELETE gives 404', async () => {
      const account = await provision();
      const subscription = expectStatus(await create(tokenOf(account), { url: PUBLIC_TARGET, events: '*' }), 201).body.data;

      const first = await remove(tokenOf(account), subscription.id);
      const again = await remove(tokenOf(account), subscription.id);

      expect(first.status).toBe(204);
      expect(first.raw.body).toBe('');
      expect(again.status).toBe(404);
      expect((await list(tokenOf(account))).body.data).toEqual([]);
      expect(await rowsOf(account)).toEqual([]);
      // the freed slot counts again toward the cap
      expect(await sql.count('webhooks.subscriptions', account.account_id)).toBe(0);
    });
  });

  describe('GET /v1/webhook-events (samples)', () => {
    it('works with no subscription: activity-log events in the delivery payload shape, newest first, id = the source event id, data.system null', async () => {
      const account = await provision();
      const token = tokenOf(account);
      const older = await createContact(api, token, { email: 'nadia@example.com', first_name: 'Nadia' });
      api.clock.advance(1000);
      const newer = await createContact(api, token, { email: 'marc@example.com', first_name: 'Marc' });
      const activity = await sql.query<any>(
        `SELECT id, contact_id, created_at FROM platform.activity_log WHERE account_id = $1 AND type = 'contact_created' ORDER BY created_at DESC`,
        [account.account_id],
      );

      const response = await samples(token);

      expect(response.status).toBe(200);
      const created = response.body.data.filter((sample: any) => sample.event === 'contact_created');
      expect(created.map((sample: any) => sample.id)).toEqual(activity.map((row) => row.id));
      expect(created.map((sample: any) => sample.data.contact_id)).toEqual([newer.id, older.id]);
      expect(created[0]).toEqual({
        event: 'contact_created',
        id: activity[0].id,
        created_at: expect.stringMatching(ISO),
        data: expect.objectContaining({
          contact_id: newer.id,
          system: null,
          actor: { type: 'api_key', id: account.api_keys.full.id, name: 'full', via: 'api_key' },
        }),
        changes: null,
      });
      expect(response.body.pagination).toEqual({ next_cursor: null, has_more: false, limit: response.body.data.length, total_count: response.body.data.length });
      const times = response.body.data.map((sample: any) => sample.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect(response.body.data.every((sample: any) => (WEBHOOK_EVENTS as readonly string[]).includes(sample.event))).toBe(true);
    });

    it('event filter: only that catalog event; a name outside the catalog gives 400 validation_error reason unknown_event_type', async () => {
      const account = await provision();
      const token = tokenOf(account);
      await createContact(api, token, { email: 'julie@example.com' });

      const filtered = await samples(token, { event: 'contact_created' });
      const none = await samples(token, { event: 'booking_created' });
      const unknown = await samples(token, { event: 'contact_archived' });

      expect(filtered.body.data.length).toBeGreaterThan(0);
      expect(filtered.body.data.every((sample: any) => sample.event === 'contact_created')).toBe(true);
      expect(none.body.data).toEqual([]);
      expectValidation(unknown, [{ field: 'event', reason: 'unknown_event_type', message: expect.any(String) }]);
    });

    it('limit is an integer from 1 to 25, default 10; anything else gives 400 validation_error', async () => {
      const account = await provision();
      const token = tokenOf(account);
      for (let i = 0; i < 12; i++) {
        await createContact(api, token, { email: `c${i}@example.com` });
        api.clock.advance(10);
      }

      expect((await samples(token)).body.data).toHaveLength(10);
      expect((await samples(token, { limit: '2' })).body.data).toHaveLength(2);
      expect((await samples(token, { limit: '25' })).body.data.length).toBeGreaterThanOrEqual(12);
      for (const limit of ['0', '26', 'abc', '1.5', '-1', '']) {
        expectValidation(await samples(token, { limit }), [{ field: 'limit', reason: 'invalid_value', message: expect.any(String) }]);
      }
    });

    it('tenant isolation: samples show only the calling account\'s events; scope webhooks:manage is required', async () => {
      const account = await provision();
      const stranger = await provision();
      await createContact(api, tokenOf(stranger), { email: 'secret.client@example.com' });

      const response = await samples(tokenOf(account));
      const noScope = await samples(tokenOf(account, 'reader'));

      expect(JSON.stringify(response.body)).not.toContain('secret.client@example.com');
      expect(response.body.data.filter((sample: any) => sample.event === 'contact_created')).toEqual([]);
      expect(noScope.status).toBe(403);
      expect(noScope.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'webhooks:manage' } });
    });
  });

  describe('GET /admin/v1/accounts/{id}/webhook-deliveries', () => {
    it('answers an empty page for an account without deliveries and 404 not_found for an unknown or malformed account id', async () => {
      const account = await provision();

      const empty = await api.admin('GET', `/accounts/${account.account_id}/webhook-deliveries`);
      const unknown = await api.admin('GET', '/accounts/00000000-0000-4000-8000-000000000000/webhook-deliveries');
      const malformed = await api.admin('GET', '/accounts/nope/webhook-deliveries');
      const badLimit = await api.request({ path: `/admin/v1/accounts/${account.account_id}/webhook-deliveries`, token: 'test-admin-token', query: { limit: '0' } });

      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 0 } });
      expect(unknown.status).toBe(404);
      expect(malformed.status).toBe(404);
      expect(badLimit.status).toBe(400);
    });
  });
});

describe('Webhooks API with WEBHOOK_ALLOW_PRIVATE_TARGETS=true', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.start({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  });
  afterAll(() => api.close());

  it('accepts loopback and private targets (development and tests only), still https only', async () => {
    const account = await api.provision(webhooksBlueprint());
    const token = account.api_keys.full.key;

    for (const url of ['https://127.0.0.1:8443/hook', 'https://localhost/hook', 'https://10.0.0.5/hook', 'https://[::1]/hook']) {
      expectStatus(await api.request({ method: 'POST', path: '/v1/webhooks', token, body: { url, events: '*' } }), 201);
    }
    const http = await api.request({ method: 'POST', path: '/v1/webhooks', token, body: { url: 'http://127.0.0.1/hook', events: '*' } });
    expect(http.status).toBe(400);
    expect(http.body.details).toEqual([expect.objectContaining({ field: 'url', reason: 'https_required' })]);
  });
});
