import { asAccountId, FixedClock } from '@leadflow/shared-kernel';
import { InMemoryUsageBucketRepository, InMemoryUsageCounterStore } from '../../../testing/in-memory-usage.stores';
import { AggregateUsageHandler } from './aggregate-usage.handler';

const A = asAccountId('0b7c4c39-2f3e-4a8e-9d7a-111111111111');
const B = asAccountId('0b7c4c39-2f3e-4a8e-9d7a-333333333333');
const KEY_A = '5d2f0a3e-7c1b-4f7e-8a55-222222222222';
const KEY_B = '5d2f0a3e-7c1b-4f7e-8a55-444444444444';

describe('AggregateUsageHandler (counter rule 2: the current hourly bucket is recomputed every few minutes)', () => {
  let clock: FixedClock;
  let counters: InMemoryUsageCounterStore;
  let buckets: InMemoryUsageBucketRepository;
  let handler: AggregateUsageHandler;

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-03-10T10:20:00.000Z'));
    counters = new InMemoryUsageCounterStore();
    buckets = new InMemoryUsageBucketRepository();
    handler = new AggregateUsageHandler(counters, buckets, clock);
  });

  const row = (accountId: string, keyId: string, hour: string) => buckets.rows.get(`${accountId}:${keyId}:${new Date(hour).getTime()}`);

  it('recomputes the current hour: in-flight requests are status_unknown until their outcome is recorded', async () => {
    const at = clock.now();
    counters.start(A, KEY_A, at);
    counters.finish(A, KEY_A, at, 200, false, 12);
    counters.start(A, KEY_A, at); // still in flight

    await handler.execute();
    expect(row(A, KEY_A, '2026-03-10T10:00:00.000Z')).toMatchObject({ requestCount: 2, status2xx: 1, statusUnknown: 1, closed: false });

    counters.finish(A, KEY_A, at, 500, false, 40);
    clock.advance(2 * 60_000);
    const result = await handler.execute();
    expect(result.hours).toEqual(['2026-03-10T10:00:00.000Z']);
    expect(row(A, KEY_A, '2026-03-10T10:00:00.000Z')).toMatchObject({ requestCount: 2, status2xx: 1, status5xx: 1, statusUnknown: 0 });
  });

  it('closes the previous hour once its grace has passed, and a late outcome reopens it', async () => {
    const at = new Date('2026-03-10T10:59:59.000Z');
    counters.start(A, KEY_A, at);

    clock.set(new Date('2026-03-10T11:02:00.000Z'));
    let result = await handler.execute();
    expect(result.closedHours).toEqual([]);
    expect(row(A, KEY_A, '2026-03-10T10:00:00.000Z')).toMatchObject({ requestCount: 1, statusUnknown: 1, closed: false });

    clock.set(new Date('2026-03-10T11:06:00.000Z'));
    result = await handler.execute();
    expect(result.closedHours).toEqual(['2026-03-10T10:00:00.000Z']);
    expect(row(A, KEY_A, '2026-03-10T10:00:00.000Z')).toMatchObject({ statusUnknown: 1, closed: true });
    expect(await counters.pendingHours()).toEqual([]);

    counters.finish(A, KEY_A, at, 200, false, 400_000); // a very long request ends
    result = await handler.execute();
    expect(result.closedHours).toEqual(['2026-03-10T10:00:00.000Z']);
    expect(row(A, KEY_A, '2026-03-10T10:00:00.000Z')).toMatchObject({ requestCount: 1, status2xx: 1, statusUnknown: 0, closed: true });
  });

  it('catches up on hours a stopped worker missed, and leaves hours after the clock for later', async () => {
    counters.start(A, KEY_A, new Date('2026-03-10T06:10:00.000Z'));
    counters.start(A, KEY_A, new Date('2026-03-10T13:10:00.000Z'));
    const result = await handler.execute();
    expect(result.hours).toEqual(['2026-03-10T06:00:00.000Z', '2026-03-10T10:00:00.000Z']);
    expect(result.closedHours).toEqual(['2026-03-10T06:00:00.000Z']);
    expect((await counters.pendingHours()).map((hour) => hour.toISOString())).toEqual(['2026-03-10T13:00:00.000Z']);
  });

  it('keeps each account and key in its own bucket (tenant isolation)', async () => {
    const at = clock.now();
    counters.start(A, KEY_A, at);
    counters.finish(A, KEY_A, at, 200, false, 5);
    counters.start(B, KEY_B, at);
    counters.finish(B, KEY_B, at, 429, true, 1);
    await handler.execute();
    expect(row(A, KEY_A, '2026-03-10T10:00:00.000Z')).toMatchObject({ requestCount: 1, status2xx: 1, rateLimited: 0 });
    expect(row(B, KEY_B, '2026-03-10T10:00:00.000Z')).toMatchObject({ requestCount: 1, status2xx: 0, rateLimited: 1 });
    expect(row(A, KEY_B, '2026-03-10T10:00:00.000Z')).toBeUndefined();
  });

  it('gives a closing hour back to the pending set when writing its buckets fails', async () => {
    counters.start(A, KEY_A, new Date('2026-03-10T08:30:00.000Z'));
    buckets.failNextSave = true;
    await expect(handler.execute()).rejects.toThrow('database unavailable');
    expect((await counters.pendingHours()).map((hour) => hour.toISOString())).toEqual(['2026-03-10T08:00:00.000Z']);
    await handler.execute();
    expect(row(A, KEY_A, '2026-03-10T08:00:00.000Z')).toMatchObject({ requestCount: 1, closed: true });
  });
});
