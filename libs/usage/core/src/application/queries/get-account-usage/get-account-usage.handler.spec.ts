import { asAccountId, FixedClock } from '@leadflow/shared-kernel';
import { GetAccountUsageQuery } from '@leadflow/usage-contracts';
import { InMemoryUsageBucketRepository, InMemoryUsageCounterStore } from '../../../testing/in-memory-usage.stores';
import { AggregateUsageHandler } from '../../commands/aggregate-usage/aggregate-usage.handler';
import { GetAccountUsageHandler } from './get-account-usage.handler';

const A = asAccountId('0b7c4c39-2f3e-4a8e-9d7a-111111111111');
const B = asAccountId('0b7c4c39-2f3e-4a8e-9d7a-333333333333');
const KEY = '5d2f0a3e-7c1b-4f7e-8a55-222222222222';
const OTHER_KEY = '5d2f0a3e-7c1b-4f7e-8a55-444444444444';
const KEY_OF_B = '5d2f0a3e-7c1b-4f7e-8a55-555555555555';

describe('GetAccountUsageHandler (operator console: the usage of every key of an account)', () => {
  const clock = new FixedClock(new Date('2026-03-12T12:00:00.000Z'));
  const counters = new InMemoryUsageCounterStore();
  const buckets = new InMemoryUsageBucketRepository();
  const handler = new GetAccountUsageHandler(buckets);

  beforeAll(async () => {
    const traffic: Array<[typeof A, string, string, number, number]> = [
      [A, KEY, '2026-03-10T10:05:00.000Z', 200, 10],
      [A, KEY, '2026-03-10T10:50:00.000Z', 404, 20],
      [A, OTHER_KEY, '2026-03-10T10:06:00.000Z', 500, 400],
      [A, OTHER_KEY, '2026-03-10T12:00:00.000Z', 200, 30],
      [B, KEY_OF_B, '2026-03-10T10:07:00.000Z', 200, 15],
    ];
    for (const [account, key, at, status, latency] of traffic) {
      counters.start(account, key, new Date(at));
      counters.finish(account, key, new Date(at), status, false, latency);
    }
    await new AggregateUsageHandler(counters, buckets, clock).execute();
  });

  it("sums every key's counts per hour and merges their latencies; another account's traffic never shows", async () => {
    const usage = await handler.execute(new GetAccountUsageQuery(A, new Date('2026-03-10T00:00:00.000Z'), new Date('2026-03-11T00:00:00.000Z'), 'hour'));
    expect(usage).toMatchObject({ account_id: A, granularity: 'hour' });
    expect(usage.buckets.map((bucket) => [bucket.bucket_start, bucket.request_count, bucket.status_2xx, bucket.status_4xx, bucket.status_5xx])).toEqual([
      ['2026-03-10T10:00:00.000Z', 3, 1, 1, 1],
      ['2026-03-10T12:00:00.000Z', 1, 1, 0, 0],
    ]);
    // p99 of {10, 20, 400} is the slow request of the other key (histogram accuracy 1 %).
    expect(usage.buckets[0]!.latency_p99_ms).toBeGreaterThan(390);
    expect(usage.totals).toEqual({ request_count: 4, status_2xx: 2, status_4xx: 1, status_5xx: 1, rate_limited_count: 0, status_unknown: 0 });
  });

  it('an account without traffic (or unknown) reads as no bucket', async () => {
    const usage = await handler.execute(
      new GetAccountUsageQuery(asAccountId('0b7c4c39-2f3e-4a8e-9d7a-999999999999'), new Date('2026-03-10T00:00:00.000Z'), new Date('2026-03-11T00:00:00.000Z'), 'day'),
    );
    expect(usage.buckets).toEqual([]);
    expect(usage.totals.request_count).toBe(0);
  });
});
