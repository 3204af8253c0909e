import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

const UNKNOWN_ACCOUNT = '6f1c8a52-3a0e-4c55-9a51-4f1b7c1d2e3f';
const OPERATOR = { type: 'operator', id: null, name: 'operator', via: null };

describe('PATCH /admin/v1/accounts/{account_id} and GET /admin/v1/accounts/{account_id}/activity (operator-api › Further operator endpoints)', () => {
  let api: TestApi;
  let sql: ReturnType<typeof sqlOf>;

  beforeAll(async () => {
    api = await TestApi.start();
    sql = sqlOf(api);
  });
  afterAll(() => api.close());

  const accountRow = async (accountId: string) =>
    (await sql.query(`SELECT name, timezone, features, api_terms_accepted, quote_defaults FROM accounts.accounts WHERE id = $1`, [accountId]))[0];

  describe('PATCH', () => {
    let account: ProvisionedAccount;

    beforeEach(async () => {
      account = await api.provision({ quote_defaults: { validity_days: 30, payment_terms: 'Payable à la signature' } });
    });

    it('changes features, api_terms_accepted, quote_defaults (merged) and timezone, and answers 200 { data: account }', async () => {
      const response = await api.admin('PATCH', `/accounts/${account.account_id}`, {
        features: ['public_api', 'quotes'],
        api_terms_accepted: false,
        quote_defaults: { validity_days: 15 },
        timezone: 'America/Vancouver',
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: {
          id: account.account_id,
          name: 'Rénovations Tremblay',
          timezone: 'America/Vancouver',
          features: ['public_api', 'quotes'],
          api_terms_accepted: false,
          quote_defaults: { validity_days: 15, payment_terms: 'Payable à la signature', signature_payment_order: 'signature_first', tax_profile: 'gst_qst' },
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          mode: 'live',
          sandbox_of: null,
        },
      });
      expect(await accountRow(account.account_id)).toEqual({
        name: 'Rénovations Tremblay',
        timezone: 'America/Vancouver',
        features: ['public_api', 'quotes'],
        api_terms_accepted: false,
        quote_defaults: { validity_days: 15, payment_terms: 'Payable à la signature', signature_payment_order: 'signature_first', tax_profile: 'gst_qst' },
      });
    });

    it('changes only the members sent', async () => {
      const before = await accountRow(account.account_id);
      const response = await api.admin('PATCH', `/accounts/${account.account_id}`, { api_terms_accepted: false });
      expect(response.status).toBe(200);
      expect(await accountRow(account.account_id)).toEqual({ ...before, api_terms_accepted: false });
    });

    it('applies a feature change from the next request: public_api removed → 403 feature_not_available on GET /v1/me, restored → 200', async () => {
      const key = account.api_keys.full.key;
      expect((await api.request({ path: '/v1/me', token: key })).status).toBe(200);

      expect((await api.admin('PATCH', `/accounts/${account.account_id}`, { features: ['quotes', 'bookings'] })).status).toBe(200);
      const refused = await api.request({ path: '/v1/me', token: key });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'feature_not_available', type: 'permission_error', details: { feature: 'public_api' } });

      expect((await api.admin('PATCH', `/accounts/${account.account_id}`, { features: ['public_api'] })).status).toBe(200);
      expect((await api.request({ path: '/v1/me', token: key })).status).toBe(200);
    });

    it('answers 404 not_found for an unknown account, a non-UUID id, and writes nothing', async () => {
      for (const id of [UNKNOWN_ACCOUNT, 'not-a-uuid', '123']) {
        const response = await api.admin('PATCH', `/accounts/${id}`, { timezone: 'UTC' });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', type: 'not_found_error', details: { resource: 'account' } });
      }
      expect(await sql.count('platform.activity_log', UNKNOWN_ACCOUNT)).toBe(0);
    });

    it('refuses a time zone that is not an IANA zone with 400 validation_error reason invalid_timezone', async () => {
      const response = await api.admin('PATCH', `/accounts/${account.account_id}`, { timezone: 'Montreal' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'timezone', reason: 'invalid_timezone' }] });
      expect((await accountRow(account.account_id)).timezone).toBe('America/Montreal');
    });

    it('answers 400 no_fields for a body without any member', async () => {
      const response = await api.admin('PATCH', `/accounts/${account.account_id}`, {});
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'no_fields', type: 'invalid_request_error' });
    });

    describe('bad input: 400 envelope, never 500, nothing written', () => {
      const patchRaw = (accountId: string, rawBody: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
        api.request({ method: 'PATCH', path: `/admin/v1/accounts/${accountId}`, token: TEST_ADMIN_TOKEN, rawBody, headers });

      async function unchanged(accountId: string, work: () => Promise<TestResponse>): Promise<TestResponse> {
        const before = await accountRow(accountId);
        const activity = await sql.count('platform.activity_log', accountId);
        const response = await work();
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(await accountRow(accountId)).toEqual(before);
        expect(await sql.count('platform.activity_log', accountId)).toBe(activity);
        return response;
      }

      it('refuses invalid JSON with 400 invalid_request reason invalid_json', async () => {
        const response = await unchanged(account.account_id, () => patchRaw(account.account_id, '{"features": ["quotes"'));
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'invalid_request', details: { field: '', reason: 'invalid_json' } });
      });

      it.each(['[]', '"quotes"', '7', 'true', 'null'])('refuses the non-object body %s with 400 validation_error', async (rawBody) => {
        const response = await unchanged(account.account_id, () => patchRaw(account.account_id, rawBody));
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: '', reason: 'invalid_type' }] });
      });

      it('refuses a non-JSON Content-Type with 415', async () => {
        const response = await unchanged(account.account_id, () => patchRaw(account.account_id, 'features=quotes', { 'content-type': 'application/x-www-form-urlencoded' }));
        expect(response.status).toBe(415);
        expect(response.body.code).toBe('unsupported_media_type');
      });

      it.each([
        ['features not an array', { features: 'quotes' }, { field: 'features', reason: 'invalid_type' }],
        ['features null', { features: null }, { field: 'features', reason: 'invalid_type' }],
        ['an unknown feature', { features: ['public_api', 'teleportation'] }, { field: 'features', reason: 'invalid_value' }],
        ['api_terms_accepted not a boolean', { api_terms_accepted: 'yes' }, { field: 'api_terms_accepted', reason: 'invalid_type' }],
        ['api_terms_accepted null', { api_terms_accepted: null }, { field: 'api_terms_accepted', reason: 'invalid_type' }],
        ['quote_defaults not an object', { quote_defaults: 30 }, { field: 'quote_defaults', reason: 'invalid_type' }],
        ['quote_defaults null', { quote_defaults: null }, { field: 'quote_defaults', reason: 'invalid_type' }],
        ['validity_days not an integer', { quote_defaults: { validity_days: 'thirty' } }, { field: 'quote_defaults.validity_days', reason: 'invalid_type' }],
        ['validity_days out of range', { quote_defaults: { validity_days: 0 } }, { field: 'quote_defaults.validity_days', reason: 'out_of_range' }],
        ['timezone not a string', { timezone: 5 }, { field: 'timezone', reason: 'invalid_type' }],
        ['timezone null', { timezone: null }, { field: 'timezone', reason: 'invalid_type' }],
        ['an oversize timezone', { timezone: `America/${'x'.repeat(60)}` }, { field: 'timezone', reason: 'too_long' }],
        ['oversize payment terms', { quote_defaults: { payment_terms: 'x'.repeat(501) } }, { field: 'quote_defaults.payment_terms', reason: 'too_long' }],
        ['an unknown member', { name: 'Nouveau nom' }, { field: 'name', reason: 'unknown_field' }],
        ['an unknown member beside a valid one', { timezone: 'UTC', plan: 'gold' }, { field: 'plan', reason: 'unknown_field' }],
        ['an unknown quote_defaults member', { quote_defaults: { currency: 'CAD' } }, { field: 'quote_defaults.currency', reason: 'unknown_field' }],
      ])('refuses %s with 400 validation_error naming the field', async (_case, body, violation) => {
        const response = await unchanged(account.account_id, () => api.admin('PATCH', `/accounts/${account.account_id}`, body));
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'validation_error', type: 'invalid_request_error' });
        expect(response.body.details).toContainEqual(expect.objectContaining(violation));
      });
    });

    it('records an account_updated activity entry by the operator listing what changed, and none when nothing changed', async () => {
      const before = await sql.count('platform.activity_log', account.account_id);
      await api.admin('PATCH', `/accounts/${account.account_id}`, { timezone: 'Europe/Paris', api_terms_accepted: true });
      const entries = await sql.query(
        `SELECT contact_id, type, actor, data FROM platform.activity_log WHERE account_id = $1 AND type = 'account_updated'`,
        [account.account_id],
      );
      expect(entries).toEqual([
        { contact_id: null, type: 'account_updated', actor: OPERATOR, data: { changes: { timezone: { from: 'America/Montreal', to: 'Europe/Paris' } } } },
      ]);
      expect(await sql.count('platform.activity_log', account.account_id)).toBe(before + 1);

      await api.admin('PATCH', `/accounts/${account.account_id}`, { timezone: 'Europe/Paris' });
      expect(await sql.count('platform.activity_log', account.account_id)).toBe(before + 1);
    });
  });

  describe('activity', () => {
    it('lists the entries newest first with id, contact_id, type, actor and created_at (api_key_created, account_updated, api_key_revoked)', async () => {
      api.clock.set(new Date('2026-11-22T10:00:00.000Z'));
      const account = await api.provision();
      api.clock.advance(60_000);
      const extra = await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'extra', preset: 'lead_capture' });
      api.clock.advance(60_000);
      await api.admin('PATCH', `/accounts/${account.account_id}`, { features: ['public_api'] });
      api.clock.advance(60_000);
      await api.admin('POST', `/accounts/${account.account_id}/api-keys/${extra.body.id}/revoke`);

      const response = await api.admin('GET', `/accounts/${account.account_id}/activity`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: [
          { id: expect.any(String), contact_id: null, type: 'api_key_revoked', actor: OPERATOR, created_at: '2026-11-22T10:03:00.000Z' },
          { id: expect.any(String), contact_id: null, type: 'account_updated', actor: OPERATOR, created_at: '2026-11-22T10:02:00.000Z' },
          { id: expect.any(String), contact_id: null, type: 'api_key_created', actor: OPERATOR, created_at: '2026-11-22T10:01:00.000Z' },
          { id: expect.any(String), contact_id: null, type: 'api_key_created', actor: OPERATOR, created_at: '2026-11-22T10:00:00.000Z' },
        ],
        pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 4 },
      });
      const data = await sql.query<{ type: string; data: Record<string, unknown> }>(
        `SELECT type, data FROM platform.activity_log WHERE account_id = $1 AND type LIKE 'api_key_%' ORDER BY created_at`,
        [account.account_id],
      );
      expect(data).toEqual([
        { type: 'api_key_created', data: expect.objectContaining({ key_id: account.api_keys.full.id, key_name: 'full', preset: 'full_integration' }) },
        { type: 'api_key_created', data: expect.objectContaining({ key_id: extra.body.id, key_name: 'extra', key_prefix: extra.body.prefix, preset: 'lead_capture' }) },
        { type: 'api_key_revoked', data: { key_id: extra.body.id, key_name: 'extra', key_prefix: extra.body.prefix } },
      ]);
    });

    it('walks every entry once through next_cursor, has_more and limit', async () => {
      const account = await api.provision({ api_keys: [] });
      for (let i = 0; i < 7; i++) {
        api.clock.advance(1000);
        await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: `k${i}` });
      }
      // two entries at the very same instant: the id breaks the tie, still each exactly once
      await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'same-instant' });

      const full = await api.request({ path: `/admin/v1/accounts/${account.account_id}/activity`, token: TEST_ADMIN_TOKEN, query: { limit: '100' } });
      expect(full.body.data).toHaveLength(8);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const response = await api.request({
          path: `/admin/v1/accounts/${account.account_id}/activity`,
          token: TEST_ADMIN_TOKEN,
          query: { limit: '3', ...(cursor ? { cursor } : {}) },
        });
        expect(response.status).toBe(200);
        expect(response.body.pagination).toMatchObject({ limit: 3, total_count: 8 });
        seen.push(...response.body.data.map((entry: { id: string }) => entry.id));
        if (!response.body.pagination.has_more) {
          expect(response.body.pagination.next_cursor).toBeNull();
          break;
        }
        cursor = response.body.pagination.next_cursor;
      }
      expect(seen).toEqual(full.body.data.map((entry: { id: string }) => entry.id));
    });

    it('filters on type and contact_id', async () => {
      const account = await api.provision();
      await api.admin('PATCH', `/accounts/${account.account_id}`, { timezone: 'UTC' });
      const byType = await api.request({ path: `/admin/v1/accounts/${account.account_id}/activity`, token: TEST_ADMIN_TOKEN, query: { type: 'account_updated' } });
      expect(byType.body.data.map((entry: { type: string }) => entry.type)).toEqual(['account_updated']);
      const byContact = await api.request({
        path: `/admin/v1/accounts/${account.account_id}/activity`,
        token: TEST_ADMIN_TOKEN,
        query: { contact_id: UNKNOWN_ACCOUNT },
      });
      expect(byContact.body).toEqual({ data: [], pagination: { next_cursor: null, has_more: false, limit: 20, total_count: 0 } });
    });

    it.each([
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ cursor: 'not a cursor!' }, 'cursor'],
      [{ contact_id: 'nope' }, 'contact_id'],
    ])('answers 400 invalid_request for %j with details.field', async (query, field) => {
      const account = await api.provision();
      const response = await api.request({ path: `/admin/v1/accounts/${account.account_id}/activity`, token: TEST_ADMIN_TOKEN, query });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'invalid_request', details: { field } });
    });

    it('answers 404 not_found for an unknown account and a non-UUID id', async () => {
      for (const id of [UNKNOWN_ACCOUNT, 'nope']) {
        const response = await api.admin('GET', `/accounts/${id}/activity`);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', details: { resource: 'account' } });
      }
    });

    it("never lists another account's entries", async () => {
      const mine = await api.provision();
      const other = await api.provision({ name: 'Autre' });
      await api.admin('PATCH', `/accounts/${other.account_id}`, { timezone: 'UTC' });
      const response = await api.admin('GET', `/accounts/${mine.account_id}/activity`);
      expect(response.body.data.map((entry: { type: string }) => entry.type)).toEqual(['api_key_created']);
      expect(response.body.pagination.total_count).toBe(1);
    });
  });
});
