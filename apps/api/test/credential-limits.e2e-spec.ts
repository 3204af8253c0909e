import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { redisProxy, RedisProxy, TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { createApiApp } from '../src/bootstrap';
import { sampleValue } from './support/prometheus-text';
import { RequestOptions, TestApi, TestResponse } from './support/test-api';

/**
 * Every credential is rate limited, and the Redis-down fallback never over-admits across processes
 * (docs/adr/0003-credential-limits-and-redis-down-fallback.md), on the real app, PostgreSQL and Redis:
 * - wrong or missing `METRICS_TOKEN`s on `GET /metrics` are limited like the operator token (10 per client
 *   address and 10 minutes, then 429 `rate_limit_exceeded` `brute_force`, the right token included);
 * - while Redis is down, two api processes (two apps, each told `API_PROCESSES=2`) admit together at most
 *   each limit: wrong API keys, wrong operator tokens, wrong metrics tokens, the key's hourly quota, the
 *   per-IP limit of lead capture. Requests alternate between the two apps, as the cluster's round robin does.
 */
const METRICS_TOKEN = 'metrics-token-for-credential-limits';
const JSON_TYPE = { 'content-type': 'application/json' };
const WRONG_KEY = `lf_live_AAAAAAAA_${'C'.repeat(40)}`;

/** The 429 of a credential past its failed attempts (the admin token's shape). */
const bruteForce = {
  code: 'rate_limit_exceeded',
  message: 'Too many failed authentication attempts from this address.',
  details: { limit_type: 'brute_force', retry_after_seconds: expect.any(Number) },
  type: expect.any(String),
  doc_url: expect.stringContaining('#rate_limit_exceeded'),
  request_id: expect.any(String),
};

function expectBruteForce(response: TestResponse): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual(bruteForce);
  const retryAfter = (response.body as { details: { retry_after_seconds: number } }).details.retry_after_seconds;
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
  expect(response.headers['retry-after']).toBe(String(retryAfter));
}

describe('every credential is rate limited', () => {
  describe('METRICS_TOKEN failed attempts, with Redis up', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await TestApi.start({ METRICS_TOKEN });
    });
    afterAll(() => api.close());

    const scrape = (remoteAddress: string, token?: string) => api.request({ path: '/metrics', token, remoteAddress });

    it('10 wrong or missing tokens from one address answer 401, the 11th 429 rate_limit_exceeded brute_force (the admin token shape); another address still gets 401', async () => {
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const refused = await scrape('198.51.100.30', attempt % 2 === 0 ? undefined : `wrong-${attempt}`);
        expect(refused.status).toBe(401);
        expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      }
      expectBruteForce(await scrape('198.51.100.30', 'wrong-11'));
      expect((await scrape('198.51.100.31', 'wrong')).status).toBe(401);
    });

    it('past the limit the right token from that address is refused too (429): a guess cannot be told right from wrong; elsewhere it reads the metrics', async () => {
      for (let attempt = 1; attempt <= 10; attempt += 1) expect((await scrape('198.51.100.32', 'wrong')).status).toBe(401);
      expectBruteForce(await scrape('198.51.100.32', METRICS_TOKEN));
      const elsewhere = await scrape('198.51.100.33', METRICS_TOKEN);
      expect(elsewhere.status).toBe(200);
      expect(sampleValue(elsewhere.raw.body, 'leadflow_auth_failures_total', { reason: 'brute_force' })).toBe(2);
    });

    it('a correct token is never counted: 25 scrapes with it, then still 10 wrong ones before the 429', async () => {
      for (let scrapes = 1; scrapes <= 25; scrapes += 1) expect((await scrape('198.51.100.34', METRICS_TOKEN)).status).toBe(200);
      for (let attempt = 1; attempt <= 10; attempt += 1) expect((await scrape('198.51.100.34', 'wrong')).status).toBe(401);
      expectBruteForce(await scrape('198.51.100.34', 'wrong'));
    });
  });

  describe('with Redis down, two api processes (API_PROCESSES=2) never admit more than a limit together', () => {
    let proxy: RedisProxy;
    let first: TestApi;
    let second: NestFastifyApplication;
    let smallKey: string;
    let captureKey: string;
    let turn = 0;

    /** One request, sent to the two processes in turn (the cluster primary's round robin). */
    const send = async (options: RequestOptions): Promise<TestResponse> => {
      turn += 1;
      if (turn % 2 === 1) return first.request(options);
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
      const raw = await second.inject({ method: options.method ?? 'GET', url: options.path, headers, payload: options.rawBody, remoteAddress: options.remoteAddress });
      let body: unknown = raw.body;
      try {
        body = JSON.parse(raw.body);
      } catch {
        // plain text (the metrics 401)
      }
      return { status: raw.statusCode, headers: raw.headers, body, raw };
    };

    /** Sends `attempts` requests in turn; returns the statuses in order. */
    const alternate = async (attempts: number, options: () => RequestOptions): Promise<TestResponse[]> => {
      turn = 0;
      const responses: TestResponse[] = [];
      for (let attempt = 0; attempt < attempts; attempt += 1) responses.push(await send(options()));
      return responses;
    };
    const admittedBeforeFirst429 = (responses: TestResponse[]): number => {
      const at = responses.findIndex((response) => response.status === 429);
      return at === -1 ? responses.length : at;
    };

    beforeAll(async () => {
      proxy = await redisProxy(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
      const env = { REDIS_URL: proxy.url, API_PROCESSES: '2', METRICS_TOKEN };
      first = await TestApi.start(env);
      const account = await first.provision({
        api_keys: [
          { name: 'small', preset: 'full_integration', per_hour: 5 },
          { name: 'capture', preset: 'lead_capture' },
        ],
      });
      smallKey = account.api_keys.small.key;
      captureKey = account.api_keys.capture.key;
      // the second process: the same database and Redis, its own counters
      second = await createApiApp(first.services.config(env), first.clock);
      await proxy.close(); // Redis is down from here on, for both
    }, 60_000);
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('wrong API keys: the two processes admit 30 in all (15 each), then 429 brute_force from both', async () => {
      const responses = await alternate(40, () => ({ path: '/v1/me', token: WRONG_KEY, remoteAddress: '203.0.113.40' }));
      const admitted = admittedBeforeFirst429(responses);
      expect(admitted).toBeLessThanOrEqual(30);
      expect(admitted).toBe(30);
      for (const response of responses.slice(0, admitted)) expect(response.body).toMatchObject({ code: 'invalid_api_key' });
      for (const response of responses.slice(admitted)) expectBruteForce(response);
    }, 60_000);

    it('wrong operator tokens: 10 in all (5 each), then 429 brute_force from both, the right token included', async () => {
      const responses = await alternate(14, () => ({ method: 'POST', path: '/admin/v1/accounts', token: 'not-the-token', remoteAddress: '203.0.113.41', rawBody: '{"name":"x"}', headers: JSON_TYPE }));
      expect(admittedBeforeFirst429(responses)).toBe(10);
      for (const response of responses.slice(0, 10)) expect(response.body).toMatchObject({ code: 'invalid_admin_token' });
      for (const response of responses.slice(10)) expectBruteForce(response);
      const right = await alternate(2, () => ({ method: 'POST', path: '/admin/v1/accounts', token: TEST_ADMIN_TOKEN, remoteAddress: '203.0.113.41', rawBody: '{"name":"Toitures Panne"}', headers: JSON_TYPE }));
      for (const response of right) expectBruteForce(response);
    }, 60_000);

    it('wrong metrics tokens: 10 in all (5 each), then 429 brute_force from both, the right token included; another address reads the metrics', async () => {
      const responses = await alternate(14, () => ({ path: '/metrics', token: 'wrong', remoteAddress: '203.0.113.42' }));
      expect(admittedBeforeFirst429(responses)).toBe(10);
      for (const response of responses.slice(0, 10)) expect(response.status).toBe(401);
      for (const response of responses.slice(10)) expectBruteForce(response);
      for (const response of await alternate(2, () => ({ path: '/metrics', token: METRICS_TOKEN, remoteAddress: '203.0.113.42' }))) expectBruteForce(response);
      for (const response of await alternate(2, () => ({ path: '/metrics', token: METRICS_TOKEN, remoteAddress: '203.0.113.43' }))) expect(response.status).toBe(200);
    }, 60_000);

    it("the key's hourly quota of 5: at most 5 in all (2 each, RateLimit-Limit 2), then 429 per_key", async () => {
      const responses = await alternate(8, () => ({ path: '/v1/me', token: smallKey }));
      const admitted = admittedBeforeFirst429(responses);
      expect(admitted).toBeLessThanOrEqual(5);
      expect(admitted).toBe(4);
      for (const response of responses.slice(0, admitted)) {
        expect(response.status).toBe(200);
        expect(response.headers['ratelimit-limit']).toBe('2');
      }
      for (const response of responses.slice(admitted)) {
        expect(response.status).toBe(429);
        expect(response.body).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'per_key', retry_after_seconds: expect.any(Number) } });
      }
    }, 60_000);

    it('the per-IP limit of lead capture (100 per minute): 100 in all (50 each), then 429 rate_limited_ip', async () => {
      // The fallback's windows run on the wall clock: frozen here, so a slow machine cannot start a new minute mid-test.
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
      try {
        // an unparsable body: the limits are consumed before the body is read (400 invalid_request), no lead is written
        const responses = await alternate(106, () => ({ method: 'POST', path: '/v1/leads/capture', token: captureKey, remoteAddress: '203.0.113.44', rawBody: '{', headers: JSON_TYPE }));
        const admitted = admittedBeforeFirst429(responses);
        expect(admitted).toBeLessThanOrEqual(100);
        expect(admitted).toBe(100);
        for (const response of responses.slice(0, admitted)) expect(response.body).toMatchObject({ code: 'invalid_request', details: { reason: 'invalid_json' } });
        for (const response of responses.slice(admitted)) {
          expect(response.status).toBe(429);
          expect(response.body).toEqual({ code: 'rate_limited_ip', message: expect.any(String), details: { limit_type: 'per_ip', retry_after_seconds: expect.any(Number) }, request_id: expect.any(String) });
          expect(response.headers['x-ratelimit-scope']).toBe('ip');
        }
      } finally {
        clock.mockRestore();
      }
    }, 120_000);
  });
});
