import { redisProxy, RedisProxy, TEST_ADMIN_TOKEN } from '@leadflow/shared-testing';
import { db } from './support/contacts-fixtures';
import { TestApi } from './support/test-api';

/**
 * Brute-force limits (issue 12, items 7 and 8): wrong API keys (30 per 10 minutes per address) and wrong
 * operator tokens (10 per 10 minutes) end in 429 `rate_limit_exceeded`, `limit_type` `brute_force`,
 * whether Redis answers or not (an in-process counter takes over while it is down: fail closed).
 */
describe('brute-force limits', () => {
  describe('with Redis up', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await TestApi.start();
    });
    afterAll(() => api.close());

    it('the 11th wrong operator token from one address answers 429 brute_force; another address still gets 401', async () => {
      const wrong = (remoteAddress: string) =>
        api.request({ method: 'POST', path: '/admin/v1/accounts', token: 'not-the-token', remoteAddress, body: { name: 'x' } });
      for (let attempt = 1; attempt <= 10; attempt += 1) expect((await wrong('198.51.100.7')).status).toBe(401);
      const refused = await wrong('198.51.100.7');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'brute_force', retry_after_seconds: expect.any(Number) } });
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await wrong('198.51.100.8')).body).toMatchObject({ code: 'invalid_admin_token' });
    });

    it('past the limit, the right operator token from that address is refused too (429 brute_force, nothing written): a guess cannot be told right from wrong', async () => {
      const remoteAddress = '198.51.100.9';
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expect((await api.request({ method: 'POST', path: '/admin/v1/accounts', token: 'not-the-token', remoteAddress, body: { name: 'x' } })).status).toBe(401);
      }
      const right = await api.request({ method: 'POST', path: '/admin/v1/accounts', token: TEST_ADMIN_TOKEN, remoteAddress, body: { name: 'Toitures Brute' } });
      expect(right.status).toBe(429);
      expect(right.body).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'brute_force' } });
      expect(await db(api).query(`SELECT id FROM accounts.accounts WHERE name = 'Toitures Brute'`)).toEqual([]);
      const elsewhere = await api.request({ method: 'POST', path: '/admin/v1/accounts', token: TEST_ADMIN_TOKEN, remoteAddress: '198.51.100.10', body: { name: 'Toitures Brute' } });
      expect(elsewhere.status).toBe(201);
    });

    it('a token differing only in length is refused like any wrong token (digests compared)', async () => {
      for (const token of [TEST_ADMIN_TOKEN.slice(0, -1), `${TEST_ADMIN_TOKEN}x`, 'x'.repeat(500)]) {
        const response = await api.request({ method: 'POST', path: '/admin/v1/accounts', token, remoteAddress: '198.51.100.20', body: { name: 'x' } });
        expect(response.status).toBe(401);
        expect(response.body).toMatchObject({ code: 'invalid_admin_token', details: null });
      }
      expect((await api.admin('POST', '/accounts', { name: 'Toitures Lévesque' })).status).toBe(201);
    });
  });

  describe('with Redis down (fail closed)', () => {
    let api: TestApi;
    let proxy: RedisProxy;
    let smallQuotaKey: string;
    beforeAll(async () => {
      proxy = await redisProxy(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
      api = await TestApi.start({ REDIS_URL: proxy.url });
      const account = await api.provision({ api_keys: [{ name: 'small', preset: 'full_integration', per_hour: 3 }] });
      smallQuotaKey = account.api_keys.small.key;
      await proxy.close();
    });

    it("the key's hourly quota still holds while Redis is unreachable (counted in the process): the 4th request of a 3-per-hour key answers 429", async () => {
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const response = await api.request({ path: '/v1/me', token: smallQuotaKey });
        expect(response.status).toBe(200);
        expect(response.headers['ratelimit-remaining']).toBe(String(3 - attempt));
      }
      const refused = await api.request({ path: '/v1/me', token: smallQuotaKey });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'per_key' } });
    }, 60_000);
    afterAll(() => api.close());

    it('the 31st wrong API key from one address answers 429 brute_force while Redis is unreachable', async () => {
      const wrong = () => api.request({ path: '/v1/me', token: `lf_live_AAAAAAAA_${'B'.repeat(40)}`, remoteAddress: '203.0.113.9' });
      for (let attempt = 1; attempt <= 30; attempt += 1) expect((await wrong()).body).toMatchObject({ code: 'invalid_api_key' });
      const refused = await wrong();
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'brute_force' } });
    }, 60_000);

    it('the 11th wrong operator token answers 429 brute_force while Redis is unreachable', async () => {
      const wrong = () => api.request({ method: 'POST', path: '/admin/v1/accounts', token: 'nope', remoteAddress: '203.0.113.10', body: { name: 'x' } });
      for (let attempt = 1; attempt <= 10; attempt += 1) expect((await wrong()).status).toBe(401);
      expect((await wrong()).body).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'brute_force' } });
    }, 60_000);
  });
});
