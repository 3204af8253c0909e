import { randomBytes } from 'node:crypto';
import { AppConfig } from '../src/config/app-config';
import { CONSUME_BATCH_COMMAND, LimitCheck, MAX_BATCH_REQUESTS, RateLimits } from '../src/http/rate-limits';
import { RedisConnection } from '../src/redis/redis.connection';

/**
 * Issue 11 (hot path), item 2, on real Redis: the limiters of every request of one event-loop turn are
 * consumed by ONE script call, with each request's own rules intact (public-api-v1 › Usage counter rules (3)):
 * checks in order, a refusal consumes nothing and stops that request's later checks. A key prefix of this
 * file's own, deleted after.
 */
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const prefix = `lftest_rl_${randomBytes(6).toString('hex')}`;

describe('RateLimits: one script call per event-loop turn', () => {
  let connection: RedisConnection;
  let limits: RateLimits;
  let calls: jest.SpyInstance;

  beforeAll(async () => {
    connection = new RedisConnection({ redisUrl, redisPrefix: prefix } as AppConfig);
    await connection.onModuleInit();
    limits = new RateLimits(connection);
    const client = connection.client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    calls = jest.spyOn(client, CONSUME_BATCH_COMMAND);
  });

  beforeEach(() => calls.mockClear());

  afterAll(async () => {
    const keys = await connection.client.keys(`${prefix}:*`);
    if (keys.length > 0) await connection.client.del(...keys);
    await connection.onApplicationShutdown();
  });

  const check = (name: string, subject: string, points: number, windowSeconds = 60): LimitCheck => ({ name, subject, points, windowSeconds });
  const counter = (c: LimitCheck) => connection.client.get(`${prefix}:rl:${c.name}:${c.windowSeconds}:${c.subject}`);

  it('the requests of one turn are consumed in one script call, in arrival order, each seeing the units of the ones before it', async () => {
    const quota = check('key_hour', 'key-a', 5, 3600);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => limits.consumeAll([quota])));

    expect(calls).toHaveBeenCalledTimes(1);
    expect(outcomes.map(([outcome]) => outcome?.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(outcomes.map(([outcome]) => outcome?.report.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    expect(outcomes[0]?.[0]?.report).toMatchObject({ limit: 5, windowSeconds: 3600 });
    expect(await counter(quota)).toBe('5'); // the three refusals gave their unit back
  });

  it('a refused check consumes nothing and stops its request, without touching the other requests of the turn', async () => {
    const ip = check('ip_capture', '203.0.113.7', 1);
    const quotaA = check('key_hour', 'key-b', 100, 3600);
    const quotaB = check('key_hour', 'key-c', 100, 3600);
    await limits.consumeAll([ip]); // the address's one unit is spent

    const [refusedRequest, otherRequest] = await Promise.all([limits.consumeAll([ip, quotaA]), limits.consumeAll([quotaB])]);

    expect(calls).toHaveBeenCalledTimes(2); // the first consumption, then the turn of the two requests
    expect(refusedRequest).toHaveLength(1); // the check after the refused one has no outcome
    expect(refusedRequest?.[0]).toMatchObject({ allowed: false, report: { limit: 1, remaining: 0 } });
    expect(await counter(ip)).toBe('1');
    expect(await counter(quotaA)).toBeNull(); // never reached: not consumed
    expect(otherRequest).toEqual([{ allowed: true, report: { limit: 100, remaining: 99, resetSeconds: 3600, windowSeconds: 3600 } }]);
    expect(await counter(quotaB)).toBe('1');
  });

  it("a counter's window starts with its first unit: its expiry is the window, reported as reset seconds", async () => {
    const perMinute = check('key_capture', 'key-d', 10, 60);
    const [[first]] = await Promise.all([limits.consumeAll([perMinute])]);

    const ttlMs = await connection.client.pttl(`${prefix}:rl:key_capture:60:key-d`);
    expect(ttlMs).toBeGreaterThan(55_000);
    expect(ttlMs).toBeLessThanOrEqual(60_000);
    expect(first?.report.resetSeconds).toBe(60);
  });

  it(`a turn of more than ${MAX_BATCH_REQUESTS} requests is sent as several calls, every unit counted once`, async () => {
    const quota = check('key_hour', 'key-e', 1_000, 3600);
    const outcomes = await Promise.all(Array.from({ length: MAX_BATCH_REQUESTS + 44 }, () => limits.consumeAll([quota])));

    expect(calls).toHaveBeenCalledTimes(2);
    expect(outcomes.every(([outcome]) => outcome?.allowed)).toBe(true);
    expect(new Set(outcomes.map(([outcome]) => outcome?.report.remaining)).size).toBe(MAX_BATCH_REQUESTS + 44);
    expect(await counter(quota)).toBe(String(MAX_BATCH_REQUESTS + 44));
  });

  it("a failed call rejects every request of its turn with Redis's error", async () => {
    const broken = check('key_hour', 'key-f', 10, 3600);
    const healthy = check('key_hour', 'key-g', 10, 3600);
    await connection.client.set(`${prefix}:rl:key_hour:3600:key-f`, 'not a number');

    const results = await Promise.allSettled([limits.consumeAll([healthy]), limits.consumeAll([broken])]);

    expect(calls).toHaveBeenCalledTimes(1);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/not an integer/);
    // Redis keeps a script's writes made before the failing command: the earlier request's unit stays
    // counted although its caller got the error (it then counts in process too: it never over-admits).
    expect(await counter(healthy)).toBe('1');
    expect(await connection.client.get(`${prefix}:rl:key_hour:3600:key-f`)).toBe('not a number');
  });

  it('no request reaches Redis while the connection is not ready: rejected at once', async () => {
    const closed = new RedisConnection({ redisUrl, redisPrefix: prefix } as AppConfig);
    closed.client.disconnect();
    const offline = new RateLimits(closed);

    await expect(offline.consumeAll([check('key_hour', 'key-h', 10)])).rejects.toThrow(/Redis connection/);
    expect(await counter(check('key_hour', 'key-h', 10))).toBeNull();
  });

  it('no checks: nothing sent', async () => {
    await expect(limits.consumeAll([])).resolves.toEqual([]);
    expect(calls).not.toHaveBeenCalled();
  });
});
