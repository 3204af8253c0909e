import { CommandBus } from '@nestjs/cqrs';
import { FixedClock } from '@leadflow/shared-kernel';
import { RedisConnection, UsageRecorder } from '@leadflow/shared-platform';
import { AggregateUsageCommand } from '@leadflow/usage-contracts';
import { captureLead, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * public-api-v1 › Limits (IP rate limit: 100 requests per minute per IP on POST /v1/leads/capture),
 * Endpoints › Leads rule 9 (429 `rate_limited_ip`, simplified body, `X-RateLimit-Scope: ip`) and
 * Usage counter rule 3 (limiter refusals count in `rate_limited_count` and do not consume the quota).
 */
describe('lead capture: per-IP limit', () => {
  const clock = new FixedClock(new Date('2026-05-14T13:10:00.000Z'));
  let api: TestApi;
  let account: ProvisionedAccount;
  const LIMITED_IP = '10.200.0.1';

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(leadsBlueprint());
  });
  afterAll(() => api.close());

  // A body refused by the handler (422, nothing written): the cheapest request that still passes the limiter.
  const send = (remoteAddress: string) => captureLead(api, account.api_keys.capture.key, [], { remoteAddress });
  const quotaUsed = async () => Number(await api.app.get(RedisConnection).client.get(`${api.services.redisPrefix}:rl:key_hour:3600:${account.api_keys.capture.id}`));

  it('allows 100 requests per minute from one IP, then answers 429 rate_limited_ip in the simplified body with X-RateLimit-Scope: ip', async () => {
    for (let index = 0; index < 100; index++) {
      const response = await send(LIMITED_IP);
      expect(response.status).toBe(422);
    }
    const refused = await send(LIMITED_IP);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'rate_limited_ip',
      message: expect.any(String),
      details: { limit_type: 'per_ip', retry_after_seconds: expect.any(Number) },
      request_id: refused.headers['x-request-id'],
    });
    expect(refused.body).not.toHaveProperty('type');
    expect(refused.body).not.toHaveProperty('doc_url');
    expect(refused.headers['x-ratelimit-scope']).toBe('ip');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('the refusals do not consume the key\'s quota (checked before it); another IP is not limited', async () => {
    expect(await quotaUsed()).toBe(100);
    for (let index = 0; index < 2; index++) expect((await send(LIMITED_IP)).status).toBe(429);
    expect(await quotaUsed()).toBe(100);
    const other = await send('10.200.0.2');
    expect(other.status).toBe(422);
    expect(other.headers['x-ratelimit-scope']).toBeUndefined();
    expect(await quotaUsed()).toBe(101);
  });

  it('the limit is per route: other routes from the limited IP still answer', async () => {
    const me = await api.request({ path: '/v1/me', token: account.api_keys.capture.key, remoteAddress: LIMITED_IP });
    expect(me.status).toBe(200);
  });

  it('usage counts the refusals in rate_limited_count, not in status_4xx', async () => {
    await (api.app.get(UsageRecorder) as UsageRecorder & { flush?: () => Promise<void> }).flush?.();
    await api.app.get(CommandBus).execute(new AggregateUsageCommand());
    const response = await api.request({
      path: '/v1/usage',
      token: account.api_keys.capture.key,
      query: { from: '2026-05-14T13:00:00Z', to: '2026-05-14T14:00:00Z', granularity: 'hour' },
      remoteAddress: '10.200.0.3',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.totals).toEqual({
      request_count: 105,
      status_2xx: 1,
      status_4xx: 101,
      status_5xx: 0,
      rate_limited_count: 3,
      status_unknown: 0,
    });
  });
});

/**
 * Behind a reverse proxy (README › TRUST_PROXY): the per-IP limit counts the client address from
 * `X-Forwarded-For` only when the socket peer is a listed proxy; from anyone else the header is ignored,
 * so a client cannot escape the limit by sending it.
 */
describe('lead capture: per-IP limit behind a trusted proxy (TRUST_PROXY)', () => {
  const clock = new FixedClock(new Date('2026-05-14T13:10:00.000Z'));
  let api: TestApi;
  let account: ProvisionedAccount;
  const PROXY = '10.9.0.1';

  beforeAll(async () => {
    api = await TestApi.start({ TRUST_PROXY: `${PROXY}` }, clock);
    account = await api.provision(leadsBlueprint());
  });
  afterAll(() => api.close());

  const send = (remoteAddress: string, forwardedFor: string) =>
    captureLead(api, account.api_keys.capture.key, [], { remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

  it('counts each forwarded client separately when the request comes through the trusted proxy', async () => {
    for (let index = 0; index < 100; index++) expect((await send(PROXY, '203.0.113.7')).status).toBe(422);
    expect((await send(PROXY, '203.0.113.7')).status).toBe(429);
    const otherClient = await send(PROXY, '203.0.113.8');
    expect(otherClient.status).toBe(422);
  });

  it('ignores X-Forwarded-For from an untrusted peer: the socket address is limited', async () => {
    for (let index = 0; index < 100; index++) expect((await send('10.9.0.2', `198.18.0.${index}`)).status).toBe(422);
    const refused = await send('10.9.0.2', '198.18.1.1');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited_ip');
  });
});
