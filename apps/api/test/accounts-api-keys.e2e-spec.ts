import { Controller, Get, Module } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { SCOPES } from '@leadflow/accounts-contracts';
import { FixedClock } from '@leadflow/shared-kernel';
import { RequireScope } from '@leadflow/shared-platform';
import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { sqlOf } from './support/sql';
import { TestApi } from './support/test-api';

/**
 * Test-only scoped routes, booted beside the app's (no context route with a scope exists yet in the
 * accounts, pipeline or messaging contexts), so the scope rule is checked now. See also the PENDING
 * `/v1/contacts` test at the end of this file.
 */
@Controller('v1/test-scopes')
class ScopeProbeController {
  @Get('contacts-delete')
  @RequireScope('contacts:delete')
  contactsDelete() {
    return { data: { ok: true } };
  }

  @Get('leads-capture')
  @RequireScope('leads:capture')
  leadsCapture() {
    return { data: { ok: true } };
  }
}

@Module({ controllers: [ScopeProbeController] })
class ScopeProbeModule {}

const KEY_PATTERN = /^lf_live_([0-9A-Za-z]{8})_([0-9A-Za-z]{32,})$/;
const UNKNOWN_ID = '6f1c8a52-3a0e-4c55-9a51-4f1b7c1d2e3f';

/** Set `LEADFLOW_RUN_PENDING_CONTACTS=1` once `GET/DELETE /v1/contacts` exist (contacts engineer). */
const itOnceContactsRoutesExist = it;

describe('API keys (public-api-v1 › Authentication; operator-api › API key format, presets, api-keys and revoke)', () => {
  let api: TestApi;
  let sql: ReturnType<typeof sqlOf>;

  beforeAll(async () => {
    api = await TestApi.start({}, new FixedClock(new Date('2026-11-22T12:00:00.000Z')), { extraModules: [ScopeProbeModule] });
    sql = sqlOf(api);
  });
  afterAll(() => api.close());

  const me = (key: string) => api.request({ path: '/v1/me', token: key });
  const keyCount = (accountId: string) => sql.count('accounts.api_keys', accountId);

  describe('presets and scopes', () => {
    it('gives lead_capture = leads:capture and events:ingest, full_integration = every scope including contacts:delete', async () => {
      const account = await api.provision({
        api_keys: [
          { name: 'capture', preset: 'lead_capture' },
          { name: 'full', preset: 'full_integration' },
        ],
      });
      const capture = await me(account.api_keys.capture.key);
      expect(capture.status).toBe(200);
      expect([...capture.body.data.scopes].sort()).toEqual(['events:ingest', 'leads:capture']);
      expect(capture.body.data.preset).toBe('lead_capture');
      expect(capture.body.data.scopes).not.toContain('contacts:delete');

      const full = await me(account.api_keys.full.key);
      expect([...full.body.data.scopes].sort()).toEqual([...SCOPES].sort());
      expect(full.body.data.scopes).toContain('contacts:delete');
      expect(full.body.data.preset).toBe('full_integration');
    });

    it('lets explicit scopes override the preset', async () => {
      const account = await api.provision({
        api_keys: [
          { name: 'readonly', preset: 'full_integration', scopes: ['contacts:read', 'pipeline:read'] },
          { name: 'capture-like', preset: 'full_integration', scopes: ['events:ingest', 'leads:capture'] },
        ],
      });
      const readonly = await me(account.api_keys.readonly.key);
      expect([...readonly.body.data.scopes].sort()).toEqual(['contacts:read', 'pipeline:read']);
      expect(readonly.body.data.preset).toBe('custom');
      expect((await me(account.api_keys['capture-like'].key)).body.data.preset).toBe('lead_capture');
      expect(await sql.query(`SELECT name, scopes FROM accounts.api_keys WHERE account_id = $1 ORDER BY name`, [account.account_id])).toEqual([
        { name: 'capture-like', scopes: ['events:ingest', 'leads:capture'] },
        { name: 'readonly', scopes: ['contacts:read', 'pipeline:read'] },
      ]);
    });

    it('refuses an empty scope list, an unknown scope or preset with 400 validation_error and creates no account', async () => {
      for (const [key, violation] of [
        [{ name: 'k', scopes: [] }, { field: 'api_keys[0].scopes', reason: 'required' }],
        [{ name: 'k', scopes: ['contacts:read', 'contacts:everything'] }, { field: 'api_keys[0].scopes', reason: 'invalid_value' }],
        [{ name: 'k', preset: 'superuser' }, { field: 'api_keys[0].preset', reason: 'invalid_value' }],
      ] as const) {
        const response = await api.admin('POST', '/accounts', { name: 'Scopes refusés', api_keys: [key] });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('validation_error');
        expect(response.body.details).toContainEqual(expect.objectContaining(violation));
      }
      expect(await sql.query(`SELECT id FROM accounts.accounts WHERE name = 'Scopes refusés'`)).toEqual([]);
    });

    it('answers 403 insufficient_scope with details.required_scope when the key lacks the route scope', async () => {
      const account = await api.provision({
        api_keys: [
          { name: 'capture', preset: 'lead_capture' },
          { name: 'readonly', scopes: ['contacts:read'] },
          { name: 'full', preset: 'full_integration' },
        ],
      });
      for (const name of ['capture', 'readonly']) {
        const response = await api.request({ path: '/v1/test-scopes/contacts-delete', token: account.api_keys[name].key });
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ code: 'insufficient_scope', type: 'permission_error', details: { required_scope: 'contacts:delete' } });
      }
      expect((await api.request({ path: '/v1/test-scopes/contacts-delete', token: account.api_keys.full.key })).status).toBe(200);
      expect((await api.request({ path: '/v1/test-scopes/leads-capture', token: account.api_keys.capture.key })).status).toBe(200);
      const readonly = await api.request({ path: '/v1/test-scopes/leads-capture', token: account.api_keys.readonly.key });
      expect(readonly.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'leads:capture' } });
    });
  });

  describe('granting contacts:delete (only someone allowed to delete prospects)', () => {
    const members = [
      { email: 'julie@tremblay.test', can_delete_prospects: true },
      { email: 'marc@tremblay.test', can_delete_prospects: false },
      { email: 'ancien@tremblay.test', can_delete_prospects: true, is_active: false },
    ];

    it.each([
      ['a member without can_delete_prospects', { preset: 'full_integration', granted_by: 'marc@tremblay.test' }],
      ['an inactive member', { preset: 'full_integration', granted_by: 'ancien@tremblay.test' }],
      ['an unknown email', { preset: 'full_integration', granted_by: 'inconnu@tremblay.test' }],
      ['explicit scopes with contacts:delete', { scopes: ['contacts:read', 'contacts:delete'], granted_by: 'marc@tremblay.test' }],
    ])('refuses a blueprint key granted by %s: 400 validation_error grant_not_allowed, no account written', async (_case, key) => {
      const response = await api.admin('POST', '/accounts', { name: 'Octroi refusé', team_members: members, api_keys: [{ name: 'k', ...key }] });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'api_keys[0].granted_by', reason: 'grant_not_allowed', message: expect.any(String) }],
      });
      expect(await sql.query(`SELECT id FROM accounts.accounts WHERE name = 'Octroi refusé'`)).toEqual([]);
    });

    it('accepts contacts:delete granted by an allowed member (case-insensitive email), and any other key granted by anyone', async () => {
      const account = await api.provision({
        team_members: members,
        api_keys: [
          { name: 'full', preset: 'full_integration', granted_by: 'Julie@Tremblay.test' },
          { name: 'capture', preset: 'lead_capture', granted_by: 'marc@tremblay.test' },
        ],
      });
      expect((await me(account.api_keys.full.key)).body.data.scopes).toContain('contacts:delete');
      expect((await me(account.api_keys.capture.key)).status).toBe(200);
    });

    it('applies the same rule to POST /admin/v1/accounts/{id}/api-keys (field granted_by), writing nothing when refused', async () => {
      const account = await api.provision({ team_members: members });
      const keysBefore = await keyCount(account.account_id);
      const activityBefore = await sql.count('platform.activity_log', account.account_id);
      const refused = await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'k', preset: 'full_integration', granted_by: 'marc@tremblay.test' });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'validation_error', details: [{ field: 'granted_by', reason: 'grant_not_allowed' }] });
      expect(await keyCount(account.account_id)).toBe(keysBefore);
      expect(await sql.count('platform.activity_log', account.account_id)).toBe(activityBefore);

      const granted = await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'k', preset: 'full_integration', granted_by: 'julie@tremblay.test' });
      expect(granted.status).toBe(201);
    });
  });

  describe('key format and storage', () => {
    it('issues lf_live_<8>_<32+> keys whose prefix is lf_live_<8>, and stores only a sha256 hash of the key', async () => {
      const account = await api.provision({ api_keys: [{ name: 'full', preset: 'full_integration' }, { name: 'capture', preset: 'lead_capture' }] });
      const extra = await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'extra' });
      const issued = [account.api_keys.full, account.api_keys.capture, extra.body];
      for (const key of issued) {
        const match = KEY_PATTERN.exec(key.key);
        expect(match).not.toBeNull();
        expect(key.prefix).toBe(`lf_live_${match![1]}`);
        expect((await me(key.key)).body.data.key_prefix).toBe(key.prefix);

        const rows = await sql.query(`SELECT prefix, secret_hash FROM accounts.api_keys WHERE id = $1`, [key.id]);
        expect(rows).toEqual([{ prefix: match![1], secret_hash: createHash('sha256').update(key.key).digest('hex') }]);
        for (const secret of [key.key, match![2]]) {
          for (const table of ['accounts.api_keys', 'accounts.accounts', 'platform.activity_log', 'platform.outbox']) {
            const found = await sql.query(`SELECT count(*)::int AS n FROM ${table} t WHERE row_to_json(t)::text LIKE '%' || $1 || '%'`, [secret]);
            expect({ table, n: found[0].n }).toEqual({ table, n: 0 });
          }
        }
      }
    });

    it('answers POST /admin/v1/accounts/{id}/api-keys with 201 { id, key, prefix }, and the key authenticates at once', async () => {
      const account = await api.provision();
      const response = await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'zapier', preset: 'lead_capture', per_hour: 120 });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), key: expect.stringMatching(KEY_PATTERN), prefix: expect.any(String) });
      const introspection = await me(response.body.key);
      expect(introspection.status).toBe(200);
      expect(introspection.body.data).toMatchObject({
        key_id: response.body.id,
        key_name: 'zapier',
        client_id: account.account_id,
        preset: 'lead_capture',
        lifecycle_state: 'active',
        rate_limits: { per_hour: 120 },
      });
    });

    it('answers 409 duplicate_resource for a name a live key of the account has; a revoked key frees its name', async () => {
      const account = await api.provision({ api_keys: [{ name: 'zapier', preset: 'lead_capture' }] });
      const duplicate = await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'zapier' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({ code: 'duplicate_resource', type: 'conflict_error', details: { field: 'name', reason: 'duplicate' } });
      expect(await keyCount(account.account_id)).toBe(1);

      expect((await api.admin('POST', `/accounts/${account.account_id}/api-keys/${account.api_keys.zapier.id}/revoke`)).status).toBe(200);
      const rotated = await api.admin('POST', `/accounts/${account.account_id}/api-keys`, { name: 'zapier' });
      expect(rotated.status).toBe(201);
      expect((await me(rotated.body.key)).body.data.key_name).toBe('zapier');

      const other = await api.provision({ name: 'Autre', api_keys: [] });
      expect((await api.admin('POST', `/accounts/${other.account_id}/api-keys`, { name: 'zapier' })).status).toBe(201);
    });

    it('refuses two keys of one name in a blueprint with 400 validation_error duplicate', async () => {
      const response = await api.admin('POST', '/accounts', { name: 'Doublon', api_keys: [{ name: 'k' }, { name: 'k', preset: 'full_integration' }] });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ field: 'api_keys[1].name', reason: 'duplicate' }] });
      expect(await sql.query(`SELECT id FROM accounts.accounts WHERE name = 'Doublon'`)).toEqual([]);
    });

    it('answers 404 not_found for a key on an unknown or non-UUID account, writing nothing', async () => {
      for (const id of [UNKNOWN_ID, 'nope']) {
        const response = await api.admin('POST', `/accounts/${id}/api-keys`, { name: 'k' });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', details: { resource: 'account' } });
      }
      expect(await sql.count('accounts.api_keys', UNKNOWN_ID)).toBe(0);
    });
  });

  describe('POST /admin/v1/accounts/{id}/api-keys: bad input gives the 400 envelope, never 500, and writes nothing', () => {
    it.each([
      ['invalid JSON', '{"name": "k",', { code: 'invalid_request', details: { field: '', reason: 'invalid_json' } }, null],
      ['a JSON array', '[{"name": "k"}]', { code: 'validation_error', details: [{ field: '', reason: 'invalid_type' }] }, null],
      ['name of the wrong type', JSON.stringify({ name: 7 }), { code: 'validation_error' }, { field: 'name', reason: 'invalid_type' }],
      ['a missing name', JSON.stringify({ preset: 'lead_capture' }), { code: 'validation_error' }, { field: 'name' }],
      ['an oversize name', JSON.stringify({ name: 'k'.repeat(201) }), { code: 'validation_error' }, { field: 'name' }],
      ['scopes not an array', JSON.stringify({ name: 'k', scopes: 'contacts:read' }), { code: 'validation_error' }, { field: 'scopes' }],
      ['per_hour not an integer', JSON.stringify({ name: 'k', per_hour: 1.5 }), { code: 'validation_error' }, { field: 'per_hour', reason: 'invalid_type' }],
      ['per_hour below 1', JSON.stringify({ name: 'k', per_hour: 0 }), { code: 'validation_error' }, { field: 'per_hour', reason: 'out_of_range' }],
      ['expires_at not a timestamp', JSON.stringify({ name: 'k', expires_at: 'tomorrow' }), { code: 'validation_error' }, { field: 'expires_at' }],
      ['granted_by not an email', JSON.stringify({ name: 'k', granted_by: 'julie' }), { code: 'validation_error' }, { field: 'granted_by' }],
      ['an unknown field', JSON.stringify({ name: 'k', secret: 'lf_live_x' }), { code: 'validation_error' }, { field: 'secret', reason: 'unknown_field' }],
    ] as [string, string, Record<string, unknown>, Record<string, string> | null][])('refuses %s', async (_case, rawBody, envelope, violation) => {
      const account = await api.provision();
      const before = [await keyCount(account.account_id), await sql.count('platform.activity_log', account.account_id)];
      const response = await api.request({
        method: 'POST',
        path: `/admin/v1/accounts/${account.account_id}/api-keys`,
        token: TEST_ADMIN_TOKEN,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ ...envelope, type: 'invalid_request_error', request_id: response.headers['x-request-id'] });
      if (violation) expect(response.body.details).toContainEqual(expect.objectContaining(violation));
      expect([await keyCount(account.account_id), await sql.count('platform.activity_log', account.account_id)]).toEqual(before);
    });
  });

  describe('revocation', () => {
    it('answers 200 and the revoked key gets 401 invalid_api_key from the next request; the other keys keep working', async () => {
      const account = await api.provision({ api_keys: [{ name: 'a', preset: 'full_integration' }, { name: 'b', preset: 'lead_capture' }] });
      const { a, b } = account.api_keys;
      expect((await me(a.key)).status).toBe(200);

      const response = await api.admin('POST', `/accounts/${account.account_id}/api-keys/${a.id}/revoke`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { id: a.id, revoked: true, lifecycle_state: 'revoked', revoked_at: api.clock.now().toISOString() } });

      const refused = await me(a.key);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'invalid_api_key', type: 'authentication_error', details: null });
      expect((await me(b.key)).status).toBe(200);
      expect(await sql.query(`SELECT revoked_at FROM accounts.api_keys WHERE id = $1`, [a.id])).toEqual([{ revoked_at: api.clock.now() }]);
    });

    it('answers 200 again for an already revoked key with the first revoked_at, recording api_key_revoked once', async () => {
      const account = await api.provision();
      const { full } = account.api_keys;
      const firstRevocation = api.clock.now().toISOString();
      for (let i = 0; i < 2; i++) {
        const response = await api.admin('POST', `/accounts/${account.account_id}/api-keys/${full.id}/revoke`);
        expect(response.status).toBe(200);
        expect(response.body.data).toMatchObject({ id: full.id, revoked_at: firstRevocation });
        api.clock.advance(60_000);
      }
      expect(await sql.query(`SELECT type, data FROM platform.activity_log WHERE account_id = $1 AND type = 'api_key_revoked'`, [account.account_id])).toEqual([
        { type: 'api_key_revoked', data: { key_id: full.id, key_name: 'full', key_prefix: full.prefix } },
      ]);
      expect((await me(full.key)).status).toBe(401);
    });

    it('answers 404 not_found for an unknown or non-UUID key id, or an unknown account', async () => {
      const account = await api.provision();
      for (const [accountId, keyId, resource] of [
        [account.account_id, UNKNOWN_ID, 'api_key'],
        [account.account_id, 'not-a-key', 'api_key'],
        [UNKNOWN_ID, account.api_keys.full.id, 'api_key'],
        ['nope', account.api_keys.full.id, 'account'],
      ]) {
        const response = await api.admin('POST', `/accounts/${accountId}/api-keys/${keyId}/revoke`);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', details: { resource } });
      }
      expect((await me(account.api_keys.full.key)).status).toBe(200);
    });

    it("answers 404 for another account's key id, and that key keeps working (tenant isolation)", async () => {
      const mine = await api.provision();
      const theirs = await api.provision({ name: 'Concurrent' });
      const response = await api.admin('POST', `/accounts/${theirs.account_id}/api-keys/${mine.api_keys.full.id}/revoke`);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'not_found', details: { resource: 'api_key' } });
      expect((await me(mine.api_keys.full.key)).status).toBe(200);
      expect(await sql.query(`SELECT revoked_at FROM accounts.api_keys WHERE id = $1`, [mine.api_keys.full.id])).toEqual([{ revoked_at: null }]);
      expect(await sql.query(`SELECT id FROM platform.activity_log WHERE type = 'api_key_revoked' AND account_id = ANY($1)`, [[mine.account_id, theirs.account_id]])).toEqual([]);
    });
  });

  describe('expiry', () => {
    it('refuses a key whose expires_at is already past with 401 invalid_api_key', async () => {
      const past = new Date(api.clock.now().getTime() - 1000).toISOString();
      const account = await api.provision({ api_keys: [{ name: 'old', preset: 'full_integration', expires_at: past }] });
      const response = await me(account.api_keys.old.key);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('invalid_api_key');
    });

    it('authenticates until expires_at and answers 401 from that instant on (clock moved)', async () => {
      const start = api.clock.now();
      const expiresAt = new Date(start.getTime() + 3_600_000);
      const account = await api.provision({ api_keys: [{ name: 'short', preset: 'full_integration', expires_at: expiresAt.toISOString() }] });
      const before = await me(account.api_keys.short.key);
      expect(before.status).toBe(200);
      expect(before.body.data).toMatchObject({ lifecycle_state: 'active', expires_at: expiresAt.toISOString() });

      api.clock.set(new Date(expiresAt.getTime() - 1));
      expect((await me(account.api_keys.short.key)).status).toBe(200);
      api.clock.set(expiresAt);
      const after = await me(account.api_keys.short.key);
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('invalid_api_key');
    });
  });

  describe('plan gating', () => {
    it('answers 403 feature_not_available with details.feature public_api on GET /v1/me for an account without public_api', async () => {
      const account = await api.provision({ features: ['quotes', 'bookings'] });
      const response = await me(account.api_keys.full.key);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'feature_not_available', type: 'permission_error', details: { feature: 'public_api' } });
    });

    it('gives every module when features are absent', async () => {
      const account = await api.provision();
      expect((await me(account.api_keys.full.key)).status).toBe(200);
      expect((await sql.query(`SELECT features FROM accounts.accounts WHERE id = $1`, [account.account_id]))[0].features).toContain('public_api');
    });
  });

  describe('PENDING /v1/contacts (run with LEADFLOW_RUN_PENDING_CONTACTS=1 once the contacts routes exist)', () => {
    itOnceContactsRoutesExist('answers 403 insufficient_scope with details.required_scope on contacts routes for keys without the scope', async () => {
      const account = await api.provision({
        api_keys: [
          { name: 'capture', preset: 'lead_capture' },
          { name: 'readonly', scopes: ['contacts:read'] },
          { name: 'full', preset: 'full_integration' },
        ],
      });
      const list = await api.request({ path: '/v1/contacts', token: account.api_keys.capture.key });
      expect(list.status).toBe(403);
      expect(list.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:read' } });

      const remove = await api.request({ method: 'DELETE', path: `/v1/contacts/${UNKNOWN_ID}`, token: account.api_keys.readonly.key });
      expect(remove.status).toBe(403);
      expect(remove.body).toMatchObject({ code: 'insufficient_scope', details: { required_scope: 'contacts:delete' } });

      expect((await api.request({ path: '/v1/contacts', token: account.api_keys.readonly.key })).status).toBe(200);
      expect((await api.request({ path: '/v1/contacts', token: account.api_keys.full.key })).status).toBe(200);
    });
  });
});
