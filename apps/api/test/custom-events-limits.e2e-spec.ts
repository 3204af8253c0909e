import { FixedClock } from '@leadflow/shared-kernel';
import { CommandBus } from '@nestjs/cqrs';
import { RedisConnection, UsageRecorder } from '@leadflow/shared-platform';
import { AggregateUsageCommand } from '@leadflow/usage-contracts';
import { EVENTS_NOW, eventsBlueprint, postEvent } from './support/events-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * public-api-v1 › Limits: 120 requests per minute per IP on POST /v1/events (429 `rate_limited_ip`,
 * simplified body, `X-RateLimit-Scope: ip`) and 60 per minute per key, adjustable per key
 * (`events_per_minute`; 429 `rate_limit_exceeded`, `details.limit_type` `per_key`). Limiter refusals
 * do not consume the key's hourly quota (Usage counter rule 3).
 */
describe('POST /v1/events: per-IP and per-key limits', () => {
  const clock = new FixedClock(EVENTS_NOW);
  let api: TestApi;
  let account: ProvisionedAccount;

  // A body refused by validation (400, nothing written): the cheapest request that still passes the limiters.
  const send = (key: string, remoteAddress: string) => postEvent(api, key, { event: 'x', contact: {} }, { remoteAddress });
  const quotaUsed = async (keyId: string) => Number(await api.app.get(RedisConnection).client.get(`${api.services.redisPrefix}:rl:key_hour:3600:${keyId}`));

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(
      eventsBlueprint({
        api_keys: [
          { name: 'unlimited', preset: 'lead_capture', per_hour: 100000, events_per_minute: 100000 },
          { name: 'default', preset: 'lead_capture', per_hour: 100000 },
          { name: 'five', preset: 'lead_capture', per_hour: 100000, events_per_minute: 5 },
        ],
      }),
    );
  });
  afterAll(() => api.close());

  it('allows 120 requests per minute from one IP, then 429 rate_limited_ip in the simplified body with X-RateLimit-Scope: ip, without consuming the key quota', async () => {
    const key = account.api_keys.unlimited;
    for (let index = 0; index < 120; index++) expect((await send(key.key, '10.30.0.1')).status).toBe(400);
    const refused = await send(key.key, '10.30.0.1');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'rate_limited_ip',
      message: expect.any(String),
      details: { limit_type: 'per_ip', retry_after_seconds: expect.any(Number) },
      request_id: refused.headers['x-request-id'],
    });
    expect(refused.headers['x-ratelimit-scope']).toBe('ip');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await quotaUsed(key.id)).toBe(120);
    expect((await send(key.key, '10.30.0.2')).status).toBe(400);
    // Per route: lead capture's own limit is not affected.
    const me = await api.request({ path: '/v1/me', token: key.key, remoteAddress: '10.30.0.1' });
    expect(me.status).toBe(200);
  });

  it('60 requests per minute per key by default, then 429 rate_limit_exceeded (limit_type per_key) from any IP, without consuming the quota; other keys unaffected', async () => {
    const key = account.api_keys.default;
    for (let index = 0; index < 60; index++) expect((await send(key.key, `10.31.0.${index % 2}`)).status).toBe(400);
    const refused = await send(key.key, '10.31.0.9');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error', details: { limit_type: 'per_key', retry_after_seconds: expect.any(Number) } });
    expect(refused.headers['x-ratelimit-scope']).toBeUndefined();
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['ratelimit-limit']).toBe('60');
    expect(await quotaUsed(key.id)).toBe(60);
    expect((await send(account.api_keys.unlimited.key, '10.31.0.9')).status).toBe(400);
    // Other routes of the same key are not limited by it.
    expect((await api.request({ path: '/v1/me', token: key.key, remoteAddress: '10.31.0.9' })).status).toBe(200);
  });

  it('the per-key limit follows the key\'s events_per_minute', async () => {
    const key = account.api_keys.five.key;
    for (let index = 0; index < 5; index++) expect((await send(key, '10.32.0.1')).status).toBe(400);
    const refused = await send(key, '10.32.0.1');
    expect(refused.status).toBe(429);
    expect(refused.body.details.limit_type).toBe('per_key');
  });

  it('usage counts the limiter refusals in rate_limited_count, not in status_4xx', async () => {
    await (api.app.get(UsageRecorder) as UsageRecorder & { flush?: () => Promise<void> }).flush?.();
    await api.app.get(CommandBus).execute(new AggregateUsageCommand());
    const response = await api.request({
      path: '/v1/usage',
      token: account.api_keys.five.key,
      query: { from: '2026-11-22T15:00:00Z', to: '2026-11-22T16:00:00Z', granularity: 'hour' },
      remoteAddress: '10.32.0.9',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.totals).toMatchObject({ status_4xx: 5, rate_limited_count: 1, status_2xx: 0, status_5xx: 0 });
  });
});
