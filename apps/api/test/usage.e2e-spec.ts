import { Controller, Get, Module } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FixedClock } from '@leadflow/shared-kernel';
import { RedisConnection, RequireScope, UsageRecorder } from '@leadflow/shared-platform';
import { AggregateUsageCommand, UsageAggregationResult } from '@leadflow/usage-contracts';
import { ProvisionedAccount, TestApi } from './support/test-api';

/** Test-only routes: a 500, and a request that stays in flight until the test releases it. */
let releaseInFlight: () => void = () => undefined;
let inFlightEntered: Promise<void> = Promise.resolve();
let markEntered: () => void = () => undefined;

function armInFlight(): void {
  inFlightEntered = new Promise((resolve) => (markEntered = resolve));
}

@Controller('v1/usage-probe')
class UsageProbeController {
  @Get('fail')
  @RequireScope(null)
  fail(): never {
    throw new Error('unexpected failure (test)');
  }

  @Get('slow')
  @RequireScope(null)
  async slow(): Promise<{ data: { ok: true } }> {
    markEntered();
    await new Promise<void>((resolve) => (releaseInFlight = resolve));
    return { data: { ok: true } };
  }
}

@Module({ controllers: [UsageProbeController] })
class UsageProbeModule {}

const ZERO = { request_count: 0, status_2xx: 0, status_4xx: 0, status_5xx: 0, rate_limited_count: 0, status_unknown: 0 };
const FAMILIES = ['status_2xx', 'status_4xx', 'status_5xx', 'rate_limited_count', 'status_unknown'] as const;

describe('GET /v1/usage and the usage counters', () => {
  let api: TestApi;
  let account: ProvisionedAccount;
  let otherAccount: ProvisionedAccount;
  const clock = new FixedClock(new Date('2026-03-10T10:15:00.000Z'));

  /** Lets the fire-and-forget usage writes of finished requests reach Redis (the recorder's flush). */
  async function settle(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 10));
    await (api.app.get(UsageRecorder) as UsageRecorder & { flush?: () => Promise<void> }).flush?.();
  }

  async function aggregate(): Promise<UsageAggregationResult> {
    await settle();
    return api.app.get(CommandBus).execute(new AggregateUsageCommand());
  }

  function usage(token: string, query: Record<string, string>) {
    return api.request({ path: '/v1/usage', token, query });
  }

  function call(token: string, path = '/v1/me') {
    return api.request({ path, token });
  }

  beforeAll(async () => {
    api = await TestApi.start({}, clock, { extraModules: [UsageProbeModule] });
    account = await api.provision({
      api_keys: [
        { name: 'full', preset: 'full_integration', per_hour: 5000 },
        { name: 'tight', preset: 'full_integration', per_hour: 4 },
        { name: 'second', preset: 'full_integration', per_hour: 5000 },
        { name: 'capture', preset: 'lead_capture', per_hour: 5000 },
      ],
    });
    otherAccount = await api.provision({ name: 'Toitures Gagnon', api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 5000 }] });
  });
  afterAll(() => api.close());

  it('answers { data } as the Usage response: api_key_id, from, to, granularity day by default, buckets and totals', async () => {
    clock.set(new Date('2026-03-10T10:15:00.000Z'));
    const key = account.api_keys.full;
    expect((await call(key.key)).status).toBe(200);
    expect((await call(key.key)).status).toBe(200);
    await aggregate();

    const response = await usage(key.key, { from: '2026-03-10T00:00:00Z', to: '2026-03-11T00:00:00Z' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        api_key_id: key.id,
        from: '2026-03-10T00:00:00.000Z',
        to: '2026-03-11T00:00:00.000Z',
        granularity: 'day',
        buckets: [
          {
            bucket_start: '2026-03-10T00:00:00.000Z',
            request_count: 2,
            status_2xx: 2,
            status_4xx: 0,
            status_5xx: 0,
            rate_limited_count: 0,
            status_unknown: 0,
            latency_p50_ms: expect.any(Number),
            latency_p95_ms: expect.any(Number),
            latency_p99_ms: expect.any(Number),
          },
        ],
        totals: { ...ZERO, request_count: 2, status_2xx: 2 },
      },
    });
    const [bucket] = response.body.data.buckets;
    expect(bucket.latency_p50_ms).toBeGreaterThan(0);
    expect(bucket.latency_p50_ms).toBeLessThanOrEqual(bucket.latency_p95_ms);
    expect(bucket.latency_p95_ms).toBeLessThanOrEqual(bucket.latency_p99_ms);
  });

  it('counter rule 1: status_2xx, status_4xx, status_5xx, rate_limited_count and status_unknown are disjoint and sum to request_count', async () => {
    clock.set(new Date('2026-03-10T11:10:00.000Z'));
    const key = account.api_keys.tight; // per_hour 4
    expect((await call(key.key)).status).toBe(200); // 1 unit
    expect((await api.request({ path: '/v1/usage', token: key.key, query: { from: 'soon' } })).status).toBe(400); // 2 units
    expect((await call(key.key, '/v1/usage-probe/fail')).status).toBe(500); // 3 units
    expect((await call(key.key)).status).toBe(200); // 4 units
    expect((await call(key.key)).status).toBe(429); // quota refusal
    expect((await call(key.key)).status).toBe(429); // quota refusal
    await aggregate();
    await api.app.get(RedisConnection).client.del(`${api.services.redisPrefix}:rl:key_hour:3600:${key.id}`); // the quota window ends

    const response = await usage(key.key, { from: '2026-03-10T11:00:00Z', to: '2026-03-10T12:00:00Z', granularity: 'hour' });
    expect(response.status).toBe(200);
    const [bucket] = response.body.data.buckets;
    expect(bucket).toMatchObject({
      bucket_start: '2026-03-10T11:00:00.000Z',
      request_count: 6,
      status_2xx: 2,
      status_4xx: 1,
      status_5xx: 1,
      rate_limited_count: 2,
      status_unknown: 0,
    });
    expect(FAMILIES.reduce((sum, family) => sum + bucket[family], 0)).toBe(bucket.request_count);
    expect(response.body.data.totals).toEqual({ request_count: 6, status_2xx: 2, status_4xx: 1, status_5xx: 1, rate_limited_count: 2, status_unknown: 0 });
  });

  it('counter rule 2: a request still in flight when aggregated counts in status_unknown, then in its family once finished', async () => {
    clock.set(new Date('2026-03-10T12:05:00.000Z'));
    const key = account.api_keys.second;
    expect((await call(key.key)).status).toBe(200);
    armInFlight();
    const inFlight = call(key.key, '/v1/usage-probe/slow');
    await inFlightEntered;
    await aggregate();

    const query = { from: '2026-03-10T12:00:00Z', to: '2026-03-10T13:00:00Z', granularity: 'hour' };
    let response = await usage(key.key, query);
    expect(response.status).toBe(200);
    expect(response.body.data.buckets).toEqual([
      expect.objectContaining({ bucket_start: '2026-03-10T12:00:00.000Z', request_count: 2, status_2xx: 1, status_unknown: 1 }),
    ]);

    releaseInFlight();
    expect((await inFlight).status).toBe(200);
    clock.set(new Date('2026-03-10T12:07:00.000Z'));
    await aggregate();
    response = await usage(key.key, query);
    // The in-flight request is now a confirmed success; the first GET /v1/usage is counted too.
    expect(response.body.data.buckets).toEqual([
      expect.objectContaining({ request_count: 3, status_2xx: 3, status_unknown: 0 }),
    ]);
  });

  it('counter rule 2: the current hour is recomputed on every run, and the previous hour is closed after it ends', async () => {
    clock.set(new Date('2026-03-10T14:10:00.000Z'));
    const key = account.api_keys.second;
    const query = { from: '2026-03-10T14:00:00Z', to: '2026-03-10T15:00:00Z', granularity: 'hour' };
    await call(key.key);
    let result = await aggregate();
    expect(result.hours).toContain('2026-03-10T14:00:00.000Z');
    expect((await usage(key.key, query)).body.data.buckets[0]).toMatchObject({ request_count: 1, status_2xx: 1 });

    clock.set(new Date('2026-03-10T14:40:00.000Z'));
    await call(key.key);
    await call(key.key);
    await aggregate();
    // 3 calls to /v1/me plus the first GET /v1/usage of this hour.
    expect((await usage(key.key, query)).body.data.buckets[0]).toMatchObject({ request_count: 4, status_2xx: 4 });

    clock.set(new Date('2026-03-10T15:06:00.000Z'));
    result = await aggregate();
    expect(result.closedHours).toContain('2026-03-10T14:00:00.000Z');
    expect((await usage(key.key, query)).body.data.buckets[0]).toMatchObject({ request_count: 5, status_2xx: 5, status_unknown: 0 });
  });

  it('sorts buckets by bucket_start ascending and omits windows without traffic (no zero padding)', async () => {
    const key = account.api_keys.capture; // lead_capture preset: /v1/usage needs no scope
    for (const at of ['2026-03-12T09:30:00.000Z', '2026-03-10T16:30:00.000Z', '2026-03-10T18:30:00.000Z']) {
      clock.set(new Date(at));
      expect((await call(key.key)).status).toBe(200);
      await aggregate();
    }
    clock.set(new Date('2026-03-12T10:00:00.000Z'));

    const hours = await usage(key.key, { from: '2026-03-10T00:00:00Z', to: '2026-03-13T00:00:00Z', granularity: 'hour' });
    expect(hours.status).toBe(200);
    expect(hours.body.data.buckets.map((bucket: { bucket_start: string }) => bucket.bucket_start)).toEqual([
      '2026-03-10T16:00:00.000Z',
      '2026-03-10T18:00:00.000Z',
      '2026-03-12T09:00:00.000Z',
    ]);

    const days = await usage(key.key, { from: '2026-03-10T00:00:00Z', to: '2026-03-13T00:00:00Z', granularity: 'day' });
    expect(days.body.data.buckets.map((bucket: { bucket_start: string; request_count: number }) => [bucket.bucket_start, bucket.request_count])).toEqual([
      ['2026-03-10T00:00:00.000Z', 2],
      ['2026-03-12T00:00:00.000Z', 1], // the GET /v1/usage above is not aggregated yet
    ]);
    expect(days.body.data.totals).toEqual({ ...ZERO, request_count: 3, status_2xx: 3 });

    const empty = await usage(key.key, { from: '2026-03-11T00:00:00Z', to: '2026-03-12T00:00:00Z' });
    expect(empty.body.data).toMatchObject({ buckets: [], totals: ZERO });
  });

  it("tenant isolation: a key's usage never shows another key's or another account's traffic", async () => {
    clock.set(new Date('2026-03-10T20:20:00.000Z'));
    const other = otherAccount.api_keys.full;
    for (let index = 0; index < 3; index++) expect((await call(other.key)).status).toBe(200);
    await call(account.api_keys.full.key);
    await aggregate();

    const query = { from: '2026-03-10T20:00:00Z', to: '2026-03-10T21:00:00Z', granularity: 'hour' };
    const mine = await usage(account.api_keys.full.key, query);
    expect(mine.body.data.api_key_id).toBe(account.api_keys.full.id);
    expect(mine.body.data.totals).toEqual({ ...ZERO, request_count: 1, status_2xx: 1 });
    const theirs = await usage(other.key, query);
    expect(theirs.body.data.api_key_id).toBe(other.id);
    expect(theirs.body.data.totals).toEqual({ ...ZERO, request_count: 3, status_2xx: 3 });
    const sibling = await usage(account.api_keys.second.key, query);
    expect(sibling.body.data).toMatchObject({ buckets: [], totals: ZERO });
  });

  describe('range rules: 400 invalid_request with details.field', () => {
    const expectInvalid = async (query: Record<string, string>, field: string, reason: string) => {
      const response = await usage(account.api_keys.full.key, query);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'invalid_request',
        message: expect.any(String),
        details: { field, reason },
        type: 'invalid_request_error',
        doc_url: 'http://127.0.0.1:3000/docs/errors#invalid_request',
        request_id: response.headers['x-request-id'],
      });
    };

    it('from is required', () => expectInvalid({ to: '2026-03-11T00:00:00Z' }, 'from', 'required'));
    it('to is required', () => expectInvalid({ from: '2026-03-10T00:00:00Z' }, 'to', 'required'));
    it('from and to are ISO 8601 timestamps', async () => {
      await expectInvalid({ from: 'yesterday', to: '2026-03-11T00:00:00Z' }, 'from', 'invalid_datetime');
      await expectInvalid({ from: '2026-03-10T00:00:00Z', to: '2026-13-01T00:00:00Z' }, 'to', 'invalid_datetime');
    });
    it('to must be strictly after from', async () => {
      await expectInvalid({ from: '2026-03-10T00:00:00Z', to: '2026-03-10T00:00:00Z' }, 'to', 'not_after_from');
      await expectInvalid({ from: '2026-03-10T00:00:00Z', to: '2026-03-09T00:00:00Z' }, 'to', 'not_after_from');
    });
    it('the range is at most 90 days', async () => {
      await expectInvalid({ from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00.001Z' }, 'to', 'range_too_long');
      expect((await usage(account.api_keys.full.key, { from: '2026-01-01T00:00:00Z', to: '2026-04-01T00:00:00Z' })).status).toBe(200);
    });
    it('granularity is hour or day', () => expectInvalid({ from: '2026-03-10T00:00:00Z', to: '2026-03-11T00:00:00Z', granularity: 'week' }, 'granularity', 'invalid_value'));
  });

  it('answers 401 invalid_api_key without a key', async () => {
    const response = await api.request({ path: '/v1/usage', query: { from: '2026-03-10T00:00:00Z', to: '2026-03-11T00:00:00Z' } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('invalid_api_key');
  });
});
