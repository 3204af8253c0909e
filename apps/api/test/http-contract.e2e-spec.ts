import { FixedClock } from '@leadflow/shared-kernel';
import { BODY_LIMIT_BYTES } from '@leadflow/shared-platform';
import { PlatformProbeModule } from './support/platform-probe';
import { sqlOf } from './support/sql';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/**
 * The cross-cutting HTTP contract (public-api-v1 › Errors, Versioning; operator-api › Error envelope,
 * 401, Runtime contract): the envelope of every error class, X-Request-ID, Service-Version, body
 * parsing after authentication, 401 for every kind of bad key, routing errors and DTO validation.
 */
const BASE_URL = 'https://api.leadflow.test';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ENVELOPE_MEMBERS = ['code', 'details', 'doc_url', 'message', 'request_id', 'type'];

/** Asserts the flat error envelope, its doc_url on PUBLIC_BASE_URL and request_id = X-Request-ID. */
function expectEnvelope(response: TestResponse, status: number, code: string, type: string): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(Object.keys(response.body).sort()).toEqual(ENVELOPE_MEMBERS);
  expect(response.body).toEqual({
    code,
    message: expect.any(String),
    details: response.body.details === null ? null : expect.anything(),
    type,
    doc_url: `${BASE_URL}/docs/errors#${code}`,
    request_id: response.headers['x-request-id'],
  });
  expect(response.body.message.length).toBeGreaterThan(0);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers['service-version']).toBe('v1');
}

describe('HTTP contract: error envelope, request id, Service-Version, body parsing, authentication', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let full: string;
  let readonly: string;
  const clock = new FixedClock(new Date('2026-06-01T12:00:00.000Z'));

  beforeAll(async () => {
    api = await TestApi.start({ PUBLIC_BASE_URL: `${BASE_URL}/` }, clock, { extraModules: [PlatformProbeModule] });
    account = await api.provision({
      features: ['public_api'],
      api_keys: [
        { name: 'full', preset: 'full_integration', per_hour: 5000 },
        { name: 'readonly', scopes: ['contacts:read'] },
        { name: 'revoked', preset: 'full_integration' },
        { name: 'expiring', preset: 'full_integration', expires_at: '2026-06-01T13:00:00.000Z' },
      ],
    });
    full = account.api_keys.full.key;
    readonly = account.api_keys.readonly.key;
  });
  afterAll(() => api.close());

  describe('error envelope on every error class', () => {
    it.each([
      ['invalid_request', 400, 'invalid_request_error'],
      ['validation_error', 400, 'invalid_request_error'],
      ['invalid_signature', 401, 'authentication_error'],
      ['terms_acceptance_required', 403, 'permission_error'],
      ['resource_not_found', 404, 'not_found_error'],
      ['contact_not_found', 404, 'not_found_error'],
      ['duplicate_resource', 409, 'conflict_error'],
      ['idempotency_conflict', 409, 'conflict_error'],
      ['business_rule_violation', 422, 'unprocessable_error'],
      ['invalid_phone', 422, 'unprocessable_error'],
      ['trigger_throttled', 429, 'rate_limit_error'],
      ['service_unavailable', 503, 'service_unavailable_error'],
    ])('a DomainError %s answers %i with type %s, doc_url and request_id', async (code, status, type) => {
      const response = await api.request({ path: `/v1/test-probe/fail?code=${code}`, token: full });
      expectEnvelope(response, status as number, code as string, type as string);
      expect(response.body.details).toEqual({ probe: true });
    });

    it('details is an array of { field, reason } for field validation', async () => {
      const response = await api.request({ path: '/v1/test-probe/fail?code=validation_error&details=array', token: full });
      expectEnvelope(response, 400, 'validation_error', 'invalid_request_error');
      expect(response.body.details).toEqual([{ field: 'name', reason: 'required' }]);
    });

    it('an unknown error code is a programming error: 500 api_error', async () => {
      const response = await api.request({ path: '/v1/test-probe/fail?code=no_such_code', token: full });
      expectEnvelope(response, 500, 'no_such_code', 'api_error');
    });

    it('the simplified body (lead capture 422, IP 429) has no type and no doc_url', async () => {
      const response = await api.request({ path: '/v1/test-probe/fail?code=rate_limited_ip&simplified=true', token: full });
      expect(response.status).toBe(429);
      expect(response.body).toEqual({
        code: 'rate_limited_ip',
        message: expect.any(String),
        details: { probe: true },
        request_id: response.headers['x-request-id'],
      });
    });

    it('data beside the envelope (409 duplicate_contact) and error headers (Retry-After)', async () => {
      const response = await api.request({ path: '/v1/test-probe/fail?code=duplicate_contact&extra=true&retry_after=7', token: full });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'duplicate_contact', type: 'conflict_error', data: { id: 'existing' } });
      expect(response.headers['retry-after']).toBe('7');
    });

    it('an unexpected error is 500 internal_error without internals', async () => {
      const response = await api.request({ path: '/v1/test-probe/boom', token: full });
      expectEnvelope(response, 500, 'internal_error', 'api_error');
      expect(response.body.details).toBeNull();
      expect(response.raw.body).not.toContain('secret internal detail');
      expect(response.raw.body).not.toContain('stack');
    });

    it('an unreachable database or Redis is 503 service_unavailable with Retry-After', async () => {
      const response = await api.request({ path: '/v1/test-probe/db-down', token: full });
      expectEnvelope(response, 503, 'service_unavailable', 'service_unavailable_error');
      expect(response.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
      expect(response.raw.body).not.toContain('ECONNREFUSED');
    });

    it('a /v1 route without @RequireScope is refused by the guard (500, never served open)', async () => {
      const response = await api.request({ path: '/v1/test-probe/no-scope-declared', token: full });
      expectEnvelope(response, 500, 'internal_error', 'api_error');
    });
  });

  describe('X-Request-ID', () => {
    it('echoes a valid X-Request-ID on success and in the error body', async () => {
      const ok = await api.request({ path: '/v1/me', token: full, headers: { 'x-request-id': 'trace-abc.123:x_y-z' } });
      expect(ok.status).toBe(200);
      expect(ok.headers['x-request-id']).toBe('trace-abc.123:x_y-z');
      const error = await api.request({ path: '/v1/test-probe/fail?code=not_found', token: full, headers: { 'x-request-id': 'trace-404' } });
      expect(error.headers['x-request-id']).toBe('trace-404');
      expect(error.body.request_id).toBe('trace-404');
    });

    it('generates a UUID when the header is absent, a different one per request', async () => {
      const first = await api.request({ path: '/health' });
      const second = await api.request({ path: '/health' });
      expect(first.headers['x-request-id']).toMatch(UUID);
      expect(second.headers['x-request-id']).toMatch(UUID);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it.each([['has spaces'], ['x'.repeat(129)], ['<script>'], ['']])('replaces an unusable X-Request-ID (%s) by a UUID', async (given) => {
      const response = await api.request({ path: '/v1/nowhere', headers: { 'x-request-id': given } });
      expect(response.headers['x-request-id']).toMatch(UUID);
      expect(response.body.request_id).toBe(response.headers['x-request-id']);
    });
  });

  describe('Service-Version: v1 on every response', () => {
    it.each([
      ['a success', { path: '/v1/me', token: 'full' }, 200],
      ['a 401', { path: '/v1/me' }, 401],
      ['an unknown route', { path: '/v1/no-such-route' }, 404],
      ['an unknown route outside /v1', { path: '/no-such-route' }, 404],
      ['a wrong method on a known path', { method: 'DELETE', path: '/v1/me', token: 'full' }, 405],
      ['the health check', { path: '/health' }, 200],
      ['a 500', { path: '/v1/test-probe/boom', token: 'full' }, 500],
    ] as const)('%s', async (_label, options, status) => {
      const response = await api.request({ ...options, token: 'token' in options ? full : undefined });
      expect(response.status).toBe(status);
      expect(response.headers['service-version']).toBe('v1');
      expect(response.headers['x-request-id']).toEqual(expect.any(String));
      expect(response.headers.deprecation).toBeUndefined();
    });
  });

  describe('routing errors', () => {
    it('an unknown route answers 404 not_found with the envelope', async () => {
      const response = await api.request({ path: '/v1/contacts-that-do-not-exist/123', token: full });
      expectEnvelope(response, 404, 'not_found', 'not_found_error');
      expect(response.body.details).toBeNull();
    });

    it('an unknown route answers 404 even without a key (nothing to authenticate)', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/nothing-here', body: { a: 1 } });
      expectEnvelope(response, 404, 'not_found', 'not_found_error');
    });

    it('a malformed URL (bad percent-encoding) answers 400 invalid_request with the envelope and headers', async () => {
      const response = await api.request({ path: '/v1/test-probe/things/%E0%A4%A', token: full });
      expectEnvelope(response, 400, 'invalid_request', 'invalid_request_error');
      expect(response.headers['x-request-id']).toMatch(UUID);
    });

    it('a very long path parameter reaches the handler (answers like a missing resource, not 414)', async () => {
      const response = await api.request({ path: `/v1/test-probe/things/${'a'.repeat(300)}`, token: full });
      expectEnvelope(response, 404, 'resource_not_found', 'not_found_error');
      expect(response.body.details).toEqual({ resource: 'thing', id_length: 300 });
    });
  });

  describe('Content-Type and body parsing (415 and invalid JSON after authentication)', () => {
    const post = (options: { token?: string; rawBody?: string; headers?: Record<string, string> }) =>
      api.request({ method: 'POST', path: '/v1/test-probe/echo', ...options });

    it('accepts application/json, with parameters and in any case', async () => {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
        const response = await post({ token: full, rawBody: '{"name":"Julie"}', headers: { 'content-type': type } });
        expect({ type, status: response.status }).toEqual({ type, status: 201 });
      }
    });

    it('a text/plain body answers 415 unsupported_media_type', async () => {
      const response = await post({ token: full, rawBody: '{"name":"Julie"}', headers: { 'content-type': 'text/plain' } });
      expectEnvelope(response, 415, 'unsupported_media_type', 'invalid_request_error');
      expect(response.body.details).toEqual({ content_type: 'text/plain' });
    });

    it('another JSON-like type (application/vnd.api+json) answers 415', async () => {
      const response = await post({ token: full, rawBody: '{"name":"Julie"}', headers: { 'content-type': 'application/vnd.api+json' } });
      expectEnvelope(response, 415, 'unsupported_media_type', 'invalid_request_error');
    });

    it('a body without Content-Type answers 415 (Fastify hands it to the catch-all parser)', async () => {
      const response = await post({ token: full, rawBody: '{"name":"Julie"}' });
      expectEnvelope(response, 415, 'unsupported_media_type', 'invalid_request_error');
      expect(response.body.details).toEqual({ content_type: null });
    });

    it('a malformed Content-Type answers 415 after authentication, not Fastify\'s own early 415', async () => {
      const response = await post({ token: full, rawBody: '{"name":"Julie"}', headers: { 'content-type': 'garbage' } });
      expectEnvelope(response, 415, 'unsupported_media_type', 'invalid_request_error');
      expect(response.body.details).toEqual({ content_type: 'garbage' });
      expect(response.headers['ratelimit-limit']).toBe('5000');
    });

    it.each([
      ['text/plain', { 'content-type': 'text/plain' }],
      ['no Content-Type', {}],
      ['a malformed Content-Type', { 'content-type': 'garbage' }],
      ['invalid JSON', { 'content-type': 'application/json' }],
    ])('%s without a key answers 401 first', async (_label, headers) => {
      const response = await post({ rawBody: '{"name":', headers });
      expectEnvelope(response, 401, 'invalid_api_key', 'authentication_error');
    });

    it('a key lacking the scope gets 403 before the body is looked at', async () => {
      const response = await post({ token: readonly, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
      expectEnvelope(response, 403, 'insufficient_scope', 'permission_error');
    });

    it('an empty body with a non-JSON Content-Type carries nothing: no 415, the DTO reports the missing field', async () => {
      const response = await post({ token: full, rawBody: '', headers: { 'content-type': 'text/plain' } });
      expectEnvelope(response, 400, 'validation_error', 'invalid_request_error');
      expect(response.body.details).toEqual([{ field: 'name', reason: 'required', message: expect.any(String) }]);
    });

    it.each([['{"name":'], ['{name: "Julie"}'], ['   '], ["{'name':'Julie'}"], ['{"name":"Julie"} trailing']])(
      'invalid JSON %j answers 400 invalid_request { field: "", reason: "invalid_json" }',
      async (rawBody) => {
        const response = await post({ token: full, rawBody, headers: { 'content-type': 'application/json' } });
        expectEnvelope(response, 400, 'invalid_request', 'invalid_request_error');
        expect(response.body.details).toEqual({ field: '', reason: 'invalid_json' });
      },
    );

    it.each([['{"name":"x","__proto__":{"admin":true}}'], ['{"name":"x","address":{"constructor":{"prototype":{"admin":true}}}}']])(
      'a prototype-poisoning body %s is refused like invalid JSON',
      async (rawBody) => {
        const response = await post({ token: full, rawBody, headers: { 'content-type': 'application/json' } });
        expectEnvelope(response, 400, 'invalid_request', 'invalid_request_error');
        expect(response.body.details).toEqual({ field: '', reason: 'invalid_json' });
      },
    );

    it.each([
      ['POST /v1/contacts', '/v1/contacts'],
      ['POST /v1/leads/capture', '/v1/leads/capture'],
      ['POST /admin/v1/accounts', '/admin/v1/accounts'],
    ])('a body nested deeper than 32 levels answers 400 invalid_request reason too_deep on %s (never a stack overflow 500)', async (_name, path) => {
      const rawBody = `{"name":"x","custom_fields":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      const token = path.startsWith('/admin') ? 'test-admin-token' : full;
      const written = async () => (await sqlOf(api).count('contacts.contacts')) + (await sqlOf(api).count('accounts.accounts'));
      const before = await written();
      const response = await api.request({ method: 'POST', path, token, rawBody, headers: { 'content-type': 'application/json' } });
      expectEnvelope(response, 400, 'invalid_request', 'invalid_request_error');
      expect(response.body.details).toEqual({ field: '', reason: 'too_deep' });
      expect(await written()).toBe(before);
    });

    it('a body nested exactly 32 levels deep is parsed and reaches validation', async () => {
      const rawBody = `{"name":"x","extra":${'['.repeat(31)}${']'.repeat(31)}}`;
      const response = await post({ token: full, rawBody, headers: { 'content-type': 'application/json' } });
      expectEnvelope(response, 400, 'validation_error', 'invalid_request_error');
    });

    it('a body over the limit answers 413 payload_too_large with the envelope (not 500)', async () => {
      const rawBody = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES) });
      const response = await post({ token: full, rawBody, headers: { 'content-type': 'application/json' } });
      expectEnvelope(response, 413, 'payload_too_large', 'invalid_request_error');
      expect(response.body.details).toEqual({ max_bytes: BODY_LIMIT_BYTES });
    });

    it('a body over the limit is refused by its Content-Length before it is read, even without a key', async () => {
      const rawBody = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES) });
      const response = await post({ rawBody, headers: { 'content-type': 'application/json' } });
      expectEnvelope(response, 413, 'payload_too_large', 'invalid_request_error');
    });

    it('a Content-Length that does not match the body answers 400 invalid_request', async () => {
      const response = await post({ token: full, rawBody: '{"name":"Julie"}', headers: { 'content-type': 'application/json', 'content-length': '5' } });
      expectEnvelope(response, 400, 'invalid_request', 'invalid_request_error');
      expect(response.body.details).toEqual({ field: 'Content-Length', reason: 'invalid_value' });
    });

    it('the operator API checks its token before the body too', async () => {
      const anonymous = await api.request({ method: 'POST', path: '/admin/v1/accounts', rawBody: '{', headers: { 'content-type': 'application/json' } });
      expectEnvelope(anonymous, 401, 'invalid_admin_token', 'authentication_error');
      const operator = await api.request({
        method: 'POST',
        path: '/admin/v1/accounts',
        rawBody: '{',
        headers: { 'content-type': 'application/json', authorization: 'Bearer test-admin-token' },
      });
      expectEnvelope(operator, 400, 'invalid_request', 'invalid_request_error');
      expect(operator.body.details).toEqual({ field: '', reason: 'invalid_json' });
    });
  });

  describe('401 invalid_api_key (operator-api › 401)', () => {
    it.each([
      ['missing', undefined],
      ['Bearer with an unformatted key', 'Bearer abc'],
      ['Basic credentials', 'Basic dXNlcjpwYXNzd29yZA=='],
      ['Bearer without a key', 'Bearer'],
      ['a key in the right format that does not exist', `Bearer lf_live_AbCdEfGh_${'x'.repeat(40)}`],
      ['a known prefix with a wrong secret', 'WRONG_SECRET'],
      ['the key without the Bearer scheme', 'RAW_KEY'],
    ])('%s', async (_label, authorization) => {
      let header = authorization;
      if (header === 'WRONG_SECRET') header = `Bearer ${account.api_keys.full.prefix}_${'Z'.repeat(40)}`;
      if (header === 'RAW_KEY') header = full;
      const response = await api.request({ path: '/v1/me', headers: header === undefined ? {} : { authorization: header } });
      expectEnvelope(response, 401, 'invalid_api_key', 'authentication_error');
      expect(response.body.details).toBeNull();
    });

    it('a revoked key stops authenticating at once', async () => {
      const key = account.api_keys.revoked;
      expect((await api.request({ path: '/v1/me', token: key.key })).status).toBe(200);
      const revoked = await api.admin('POST', `/accounts/${account.account_id}/api-keys/${key.id}/revoke`);
      expect(revoked.status).toBe(200);
      const response = await api.request({ path: '/v1/me', token: key.key });
      expectEnvelope(response, 401, 'invalid_api_key', 'authentication_error');
    });

    it('an expired key answers 401 once the clock passes expires_at', async () => {
      const key = account.api_keys.expiring.key;
      expect((await api.request({ path: '/v1/me', token: key })).status).toBe(200);
      clock.set(new Date('2026-06-01T13:00:00.001Z'));
      try {
        const response = await api.request({ path: '/v1/me', token: key });
        expectEnvelope(response, 401, 'invalid_api_key', 'authentication_error');
      } finally {
        clock.set(new Date('2026-06-01T12:00:00.000Z'));
      }
    });

    it('after 30 failures from one address, further failures answer 429 brute_force; a valid key still works', async () => {
      const from = { remoteAddress: '198.51.100.7' };
      for (let attempt = 1; attempt <= 30; attempt++) {
        const response = await api.request({ path: '/v1/me', token: 'nope', ...from });
        expect({ attempt, status: response.status }).toEqual({ attempt, status: 401 });
      }
      const refused = await api.request({ path: '/v1/me', token: 'nope', ...from });
      expectEnvelope(refused, 429, 'rate_limit_exceeded', 'rate_limit_error');
      expect(refused.body.details).toEqual({ limit_type: 'brute_force', retry_after_seconds: expect.any(Number) });
      expect(refused.headers['retry-after']).toBe(String(refused.body.details.retry_after_seconds));
      expect((await api.request({ path: '/v1/me', token: full, ...from })).status).toBe(200);
      expect((await api.request({ path: '/v1/me', token: 'nope', remoteAddress: '198.51.100.8' })).status).toBe(401);
    });
  });

  describe('403 plan and scope', () => {
    it('insufficient_scope names the required scope', async () => {
      const response = await api.request({ method: 'POST', path: '/v1/test-probe/echo', token: readonly, body: { name: 'Julie' } });
      expectEnvelope(response, 403, 'insufficient_scope', 'permission_error');
      expect(response.body.details).toEqual({ required_scope: 'contacts:write' });
    });

    it('feature_not_available names the missing module', async () => {
      const response = await api.request({ path: '/v1/test-probe/quotes-module', token: full });
      expectEnvelope(response, 403, 'feature_not_available', 'permission_error');
      expect(response.body.details).toEqual({ feature: 'quotes' });
    });

    it('an account without public_api is refused on every /v1 route', async () => {
      const other = await api.provision({ features: ['quotes'] });
      const response = await api.request({ path: '/v1/me', token: other.api_keys.full.key });
      expectEnvelope(response, 403, 'feature_not_available', 'permission_error');
      expect(response.body.details).toEqual({ feature: 'public_api' });
    });
  });

  describe('DTO validation (400 validation_error, details [{ field, reason }])', () => {
    const echo = (body: unknown) => api.request({ method: 'POST', path: '/v1/test-probe/echo', token: full, body });

    it.each([
      ['an unknown field', { name: 'Julie', nickname: 'J' }, [{ field: 'nickname', reason: 'unknown_field' }]],
      ['a missing required field', {}, [{ field: 'name', reason: 'required' }]],
      ['a wrong type', { name: 42 }, [{ field: 'name', reason: 'invalid_type' }]],
      ['a string too long', { name: 'x'.repeat(51) }, [{ field: 'name', reason: 'too_long' }]],
      ['a number out of range', { name: 'Julie', count: -1 }, [{ field: 'count', reason: 'out_of_range' }]],
      ['a nested field, with a dotted path', { name: 'Julie', address: { city: 5 } }, [{ field: 'address.city', reason: 'invalid_type' }]],
      ['an unknown nested field', { name: 'Julie', address: { city: 'Laval', zip: 'H7' } }, [{ field: 'address.zip', reason: 'unknown_field' }]],
    ])('%s', async (_label, body, expected) => {
      const response = await echo(body);
      expectEnvelope(response, 400, 'validation_error', 'invalid_request_error');
      expect(response.body.details).toEqual(expected.map((violation) => ({ ...violation, message: expect.any(String) })));
    });

    it.each([[[{ name: 'Julie' }]], ['"Julie"'], [42], [true], [null]])('a body that is not a JSON object (%j) fails as a whole', async (body) => {
      const response = await api.request({
        method: 'POST',
        path: '/v1/test-probe/echo',
        token: full,
        rawBody: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(response, 400, 'validation_error', 'invalid_request_error');
      expect(response.body.details).toEqual([{ field: '', reason: 'invalid_type', message: expect.any(String) }]);
    });

    it('a failing value is never echoed back', async () => {
      const response = await echo({ name: 'x'.repeat(51) + 'SENSITIVE' });
      expect(response.status).toBe(400);
      expect(response.raw.body).not.toContain('SENSITIVE');
    });
  });
});
