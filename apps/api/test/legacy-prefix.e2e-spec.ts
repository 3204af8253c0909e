import { FixedClock } from '@leadflow/shared-kernel';
import { LEGACY_SUNSET } from '@leadflow/shared-platform';
import { PlatformProbeModule } from './support/platform-probe';
import { TestApi } from './support/test-api';

/**
 * The legacy host (public-api-v1 › Versioning; operator-api › Runtime contract, Legacy host): `/api/v1/…`
 * serves the same handlers with `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a successor `Link`
 * until 2027-05-03T00:00:00Z, then answers 308 to the same path without `/api` on PUBLIC_BASE_URL.
 */
const BASE_URL = 'https://api.leadflow.test';
const DEPRECATION = '@1777766400'; // 2026-05-03T00:00:00Z
const SUNSET = 'Mon, 03 May 2027 00:00:00 GMT';

describe('legacy /api prefix', () => {
  const beforeSunset = new Date('2026-11-22T10:00:00.000Z');
  const clock = new FixedClock(beforeSunset);
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await TestApi.start({ PUBLIC_BASE_URL: BASE_URL }, clock, { extraModules: [PlatformProbeModule] });
    const account = await api.provision({ api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 5000 }] });
    token = account.api_keys.full.key;
  });
  afterAll(() => api.close());
  afterEach(() => clock.set(beforeSunset));

  describe('before the sunset', () => {
    it('serves the same handler as /v1 with Deprecation, Sunset and the successor Link', async () => {
      const legacy = await api.request({ path: '/api/v1/me', token });
      const current = await api.request({ path: '/v1/me', token });
      expect(legacy.status).toBe(200);
      expect(legacy.body.data.key_id).toBe(current.body.data.key_id);
      expect(legacy.body).toEqual(current.body);
      expect(legacy.headers.deprecation).toBe(DEPRECATION);
      expect(legacy.headers.sunset).toBe(SUNSET);
      expect(legacy.headers.link).toBe(`<${BASE_URL}/v1/me>; rel="successor-version"`);
      expect(legacy.headers['service-version']).toBe('v1');
    });

    it('keeps the query string in the successor link', async () => {
      const response = await api.request({ path: '/api/v1/test-probe/items?limit=5&cursor=', token });
      expect(response.status).toBe(200);
      expect(response.headers.link).toBe(`<${BASE_URL}/v1/test-probe/items?limit=5&cursor=>; rel="successor-version"`);
    });

    it('serves writes too', async () => {
      const response = await api.request({ method: 'POST', path: '/api/v1/test-probe/echo', token, body: { name: 'Julie' } });
      expect(response.status).toBe(201);
      expect(response.body.data.name).toBe('Julie');
      expect(response.headers.deprecation).toBe(DEPRECATION);
    });

    it('errors carry the legacy headers and the envelope', async () => {
      const unauthenticated = await api.request({ path: '/api/v1/me' });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body).toMatchObject({ code: 'invalid_api_key', doc_url: `${BASE_URL}/docs/errors#invalid_api_key` });
      expect(unauthenticated.headers.deprecation).toBe(DEPRECATION);
      expect(unauthenticated.headers.sunset).toBe(SUNSET);

      const unknown = await api.request({ path: '/api/v1/no-such-route', token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('not_found');
      expect(unknown.headers.link).toBe(`<${BASE_URL}/v1/no-such-route>; rel="successor-version"`);
    });

    it('one millisecond before the sunset is still served', async () => {
      clock.set(new Date(LEGACY_SUNSET.getTime() - 1));
      const response = await api.request({ path: '/api/v1/me', token });
      expect(response.status).toBe(200);
      expect(response.headers.deprecation).toBe(DEPRECATION);
    });

    it.each([['/v1/me'], ['/health'], ['/v1/no-such-route']])('a non-legacy response (%s) carries no Deprecation, Sunset or Link', async (path) => {
      const response = await api.request({ path, token });
      expect(response.headers.deprecation).toBeUndefined();
      expect(response.headers.sunset).toBeUndefined();
      expect(response.headers.link).toBeUndefined();
    });

    it.each([['/api/v2/me'], ['/api/me'], ['/apiv1/me'], ['/api/admin/v1/accounts']])('%s is not the legacy host (404, no legacy headers)', async (path) => {
      const response = await api.request({ path, token });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('not_found');
      expect(response.headers.deprecation).toBeUndefined();
    });
  });

  describe('at and after the sunset (2027-05-03T00:00:00Z)', () => {
    it.each([
      ['at the sunset instant', LEGACY_SUNSET],
      ['a year later', new Date('2028-05-03T00:00:00.000Z')],
    ])('%s answers 308 to the same path without /api on PUBLIC_BASE_URL, query string kept', async (_label, instant) => {
      clock.set(instant);
      const response = await api.request({ path: '/api/v1/contacts?limit=5&cursor=abc', token });
      expect(response.status).toBe(308);
      expect(response.headers.location).toBe(`${BASE_URL}/v1/contacts?limit=5&cursor=abc`);
      expect(response.headers['service-version']).toBe('v1');
      expect(response.headers['x-request-id']).toEqual(expect.any(String));
    });

    it('redirects writes (308 keeps the method and body) and requests without a key alike', async () => {
      clock.set(LEGACY_SUNSET);
      const write = await api.request({ method: 'POST', path: '/api/v1/test-probe/echo', token, body: { name: 'Julie' } });
      expect(write.status).toBe(308);
      expect(write.headers.location).toBe(`${BASE_URL}/v1/test-probe/echo`);
      const anonymous = await api.request({ path: '/api/v1/me' });
      expect(anonymous.status).toBe(308);
      expect(anonymous.headers.location).toBe(`${BASE_URL}/v1/me`);
    });

    it('never answers 410, and /v1 keeps working without legacy headers', async () => {
      clock.set(new Date(LEGACY_SUNSET.getTime() + 1));
      const legacy = await api.request({ path: '/api/v1/me', token });
      expect(legacy.status).toBe(308);
      const current = await api.request({ path: '/v1/me', token });
      expect(current.status).toBe(200);
      expect(current.headers.deprecation).toBeUndefined();
    });
  });
});
