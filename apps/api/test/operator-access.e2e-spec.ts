import { TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { blueprintCounts } from './support/sql';
import { RequestOptions, TestApi } from './support/test-api';

const SOME_ID = '6f1c8a52-3a0e-4c55-9a51-4f1b7c1d2e3f';
const BLUEPRINT = { name: 'Rénovations Tremblay', api_keys: [{ name: 'full', preset: 'full_integration' }] };

interface AdminRoute {
  method: NonNullable<RequestOptions['method']>;
  path: string;
  body?: unknown;
}

/** Every operator route of this issue, with a body where the route takes one. */
const OPERATOR_ROUTES: AdminRoute[] = [
  { method: 'POST', path: '/admin/v1/accounts', body: BLUEPRINT },
  { method: 'PATCH', path: `/admin/v1/accounts/${SOME_ID}`, body: { features: [] } },
  { method: 'POST', path: `/admin/v1/accounts/${SOME_ID}/api-keys`, body: { name: 'k' } },
  { method: 'POST', path: `/admin/v1/accounts/${SOME_ID}/api-keys/${SOME_ID}/revoke` },
  { method: 'GET', path: `/admin/v1/accounts/${SOME_ID}/activity` },
];
/** /admin paths no route serves. */
const UNROUTED: AdminRoute[] = [
  { method: 'GET', path: '/admin/v1/no-such-route' },
  { method: 'GET', path: '/admin/v1/accounts' },
  { method: 'DELETE', path: `/admin/v1/accounts/${SOME_ID}` },
];

describe('operator API access (operator-api › Runtime contract, ADMIN_TOKEN)', () => {
  describe('ADMIN_TOKEN unset', () => {
    let api: TestApi;

    beforeAll(async () => {
      api = await TestApi.start({ ADMIN_TOKEN: '' });
    });
    afterAll(() => api.close());

    it.each([...OPERATOR_ROUTES, ...UNROUTED])('answers 404 not_found on $method $path, with or without a bearer token, and writes nothing', async ({ method, path, body }) => {
      const before = await blueprintCounts(api);
      for (const token of [undefined, TEST_ADMIN_TOKEN, 'anything']) {
        const response = await api.request({ method, path, body, token });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'not_found', type: 'not_found_error', request_id: response.headers['x-request-id'] });
      }
      expect(await blueprintCounts(api)).toEqual(before);
    });

    it('answers like an unknown route, so the operator API cannot be discovered', async () => {
      const known = await api.request({ method: 'POST', path: '/admin/v1/accounts', body: BLUEPRINT, token: TEST_ADMIN_TOKEN });
      const unknown = await api.request({ method: 'POST', path: '/admin/v1/nothing-here', body: BLUEPRINT, token: TEST_ADMIN_TOKEN });
      const strip = (body: Record<string, unknown>) => ({ ...body, request_id: undefined, message: undefined });
      expect(known.status).toBe(unknown.status);
      expect(strip(known.body)).toEqual(strip(unknown.body));
    });

    it('leaves the public API working', async () => {
      const response = await api.request({ path: '/v1/me' });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('invalid_api_key');
    });
  });

  describe('ADMIN_TOKEN set', () => {
    let api: TestApi;
    /** Each wrong-token attempt below comes from its own address: 10 from one address within 10 minutes end in 429 (brute-force.e2e-spec.ts). */
    let client = 0;
    const nextAddress = () => `198.18.${Math.floor(client / 250)}.${(client++ % 250) + 1}`;

    beforeAll(async () => {
      api = await TestApi.start();
    });
    afterAll(() => api.close());

    it.each(OPERATOR_ROUTES)(
      'answers 401 invalid_admin_token on $method $path without a token, with a wrong one or a malformed header, and writes nothing',
      async ({ method, path, body }) => {
        const before = await blueprintCounts(api);
        const attempts: Record<string, string>[] = [
          {},
          { authorization: 'Bearer wrong-token' },
          { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` },
          { authorization: `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}` },
          { authorization: TEST_ADMIN_TOKEN },
          { authorization: `Basic ${TEST_ADMIN_TOKEN}` },
        ];
        for (const headers of attempts) {
          const response = await api.request({ method, path, body, headers, remoteAddress: nextAddress() });
          expect(response.status).toBe(401);
          expect(response.body).toEqual({
            code: 'invalid_admin_token',
            message: expect.any(String),
            details: null,
            type: 'authentication_error',
            doc_url: 'http://127.0.0.1:3000/docs/errors#invalid_admin_token',
            request_id: response.headers['x-request-id'],
          });
        }
        expect(await blueprintCounts(api)).toEqual(before);
      },
    );

    it('refuses an account API key as the admin token', async () => {
      const account = await api.provision();
      const response = await api.request({ method: 'POST', path: '/admin/v1/accounts', body: BLUEPRINT, token: account.api_keys.full.key });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('invalid_admin_token');
    });

    it('checks the token before the body: a wrong token with invalid JSON answers 401, not 400', async () => {
      const response = await api.request({
        method: 'POST',
        path: '/admin/v1/accounts',
        token: 'wrong-token',
        rawBody: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(401);
    });

    it('accepts the right token', async () => {
      const response = await api.request({ method: 'POST', path: '/admin/v1/accounts', body: BLUEPRINT, token: TEST_ADMIN_TOKEN });
      expect(response.status).toBe(201);
    });
  });
});
