import { CommandBus } from '@nestjs/cqrs';
import { FixedClock } from '@leadflow/shared-kernel';
import { RedisConnection, UsageRecorder } from '@leadflow/shared-platform';
import { AggregateUsageCommand } from '@leadflow/usage-contracts';
import { ProvisionedAccount, TestApi, TestResponse } from './support/test-api';

/** public-api-v1 › Limits (per-key hourly quota, quota headers), Errors (429), Usage counter rule 3. */
describe('per-key hourly quota and the brute-force guard', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  const clock = new FixedClock(new Date('2026-03-10T10:15:00.000Z'));

  const me = (token: string) => api.request({ path: '/v1/me', token });
  const quotaCounter = (keyId: string) => api.app.get(RedisConnection).client.get(`${api.services.redisPrefix}:rl:key_hour:3600:${keyId}`);

  function expectQuotaHeaders(response: TestResponse, limit: number, remaining: number): void {
    expect(response.headers['ratelimit-limit']).toBe(String(limit));
    expect(response.headers['ratelimit-remaining']).toBe(String(remaining));
    expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    expect(Number(response.headers['ratelimit-reset'])).toBeLessThanOrEqual(3600);
    expect(response.headers['ratelimit-policy']).toBe(`${limit};w=3600`);
    expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
    expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
    // Legacy reset: the epoch second the window resets.
    expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(Math.floor(clock.now().getTime() / 1000));
  }

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision({
      api_keys: [
        { name: 'full', preset: 'full_integration', per_hour: 5000 },
        { name: 'three', preset: 'full_integration', per_hour: 3 },
      ],
    });
  });
  afterAll(() => api.close());

  it('each GET /v1/me consumes 1 unit of the per-key limit (RateLimit-Remaining decreases by 1)', async () => {
    const first = await me(account.api_keys.full.key);
    const second = await me(account.api_keys.full.key);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expectQuotaHeaders(first, 5000, 4999);
    expectQuotaHeaders(second, 5000, 4998);
  });

  it('quota headers are on every authenticated response, errors included', async () => {
    const response = await api.request({ path: '/v1/usage', token: account.api_keys.full.key, query: { from: 'later' } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_request');
    expectQuotaHeaders(response, 5000, 4997);
  });

  it('the request after per_hour requests gets 429 rate_limit_exceeded with limit_type per_key, Retry-After and the quota headers', async () => {
    const key = account.api_keys.three;
    for (const remaining of [2, 1, 0]) {
      const allowed = await me(key.key);
      expect(allowed.status).toBe(200);
      expectQuotaHeaders(allowed, 3, remaining);
    }
    const refused = await me(key.key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'rate_limit_exceeded',
      message: expect.any(String),
      details: { limit_type: 'per_key', retry_after_seconds: expect.any(Number) },
      type: 'rate_limit_error',
      doc_url: 'http://127.0.0.1:3000/docs/errors#rate_limit_exceeded',
      request_id: refused.headers['x-request-id'],
    });
    const retryAfter = refused.body.details.retry_after_seconds;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers['retry-after']).toBe(String(retryAfter));
    expectQuotaHeaders(refused, 3, 0);
  });

  it('counter rule 3: a quota refusal does not consume the quota (remaining stays 0, the counter stays at the limit)', async () => {
    const key = account.api_keys.three;
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await me(key.key);
      expect(refused.status).toBe(429);
      expect(refused.body.details.limit_type).toBe('per_key');
      expectQuotaHeaders(refused, 3, 0);
    }
    expect(await quotaCounter(key.id)).toBe('3');
  });

  it('counter rule 3: quota refusals count in rate_limited_count, not in status_4xx', async () => {
    const key = account.api_keys.three;
    await new Promise((resolve) => setTimeout(resolve, 10));
    await (api.app.get(UsageRecorder) as UsageRecorder & { flush?: () => Promise<void> }).flush?.();
    await api.app.get(CommandBus).execute(new AggregateUsageCommand());
    await api.app.get(RedisConnection).client.del(`${api.services.redisPrefix}:rl:key_hour:3600:${key.id}`); // the window ends

    const response = await api.request({
      path: '/v1/usage',
      token: key.key,
      query: { from: '2026-03-10T10:00:00Z', to: '2026-03-10T11:00:00Z', granularity: 'hour' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.totals).toEqual({
      request_count: 7,
      status_2xx: 3,
      status_4xx: 0,
      status_5xx: 0,
      rate_limited_count: 4,
      status_unknown: 0,
    });
  });

  it('brute force: after 30 failed authentications from one IP within 10 minutes, 429 rate_limit_exceeded with limit_type brute_force', async () => {
    for (let attempt = 1; attempt <= 30; attempt++) {
      const failed = await me(`lf_live_zzzzzzzz_${'x'.repeat(32)}`);
      expect(failed.status).toBe(401);
      expect(failed.body.code).toBe('invalid_api_key');
    }
    const refused = await me(`lf_live_zzzzzzzz_${'y'.repeat(32)}`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'rate_limit_exceeded',
      details: { limit_type: 'brute_force', retry_after_seconds: expect.any(Number) },
      type: 'rate_limit_error',
    });
    expect(refused.body.details.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(refused.body.details.retry_after_seconds).toBeLessThanOrEqual(600);
    expect(refused.headers['retry-after']).toBe(String(refused.body.details.retry_after_seconds));
    // Without a key the request is no key's usage; a missing header counts as a failure too.
    expect((await api.request({ path: '/v1/me' })).status).toBe(429);
  });
});
