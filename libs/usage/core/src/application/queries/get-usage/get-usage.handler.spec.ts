import { asAccountId, DomainError, FixedClock } from '@leadflow/shared-kernel';
import { GetUsageQuery } from '@leadflow/usage-contracts';
import { InMemoryUsageBucketRepository, InMemoryUsageCounterStore } from '../../../testing/in-memory-usage.stores';
import { AggregateUsageHandler } from '../../commands/aggregate-usage/aggregate-usage.handler';
import { GetUsageHandler } from './get-usage.handler';

const A = asAccountId('0b7c4c39-2f3e-4a8e-9d7a-111111111111');
const KEY = '5d2f0a3e-7c1b-4f7e-8a55-222222222222';
const OTHER_KEY = '5d2f0a3e-7c1b-4f7e-8a55-444444444444';

describe('GetUsageHandler (GET /v1/usage data)', () => {
  const clock = new FixedClock(new Date('2026-03-12T12:00:00.000Z'));
  const counters = new InMemoryUsageCounterStore();
  const buckets = new InMemoryUsageBucketRepository();
  const handler = new GetUsageHandler(buckets);

  beforeAll(async () => {
    const traffic: Array<[string, string, number, boolean]> = [
      [KEY, '2026-03-10T10:05:00.000Z', 200, false],
      [KEY, '2026-03-10T10:50:00.000Z', 404, false],
      [KEY, '2026-03-10T14:00:00.000Z', 429, true],
      [KEY, '2026-03-11T09:00:00.000Z', 200, false],
      [OTHER_KEY, '2026-03-10T10:06:00.000Z', 500, false],
    ];
    for (const [key, at, status, rateLimited] of traffic) {
      counters.start(A, key, new Date(at));
      counters.finish(A, key, new Date(at), status, rateLimited, 20);
    }
    await new AggregateUsageHandler(counters, buckets, clock).execute();
  });

  it("answers the calling key's hour buckets, ascending, without zero padding, with totals", async () => {
    const usage = await handler.execute(
      new GetUsageQuery(A, KEY, new Date('2026-03-10T00:00:00.000Z'), new Date('2026-03-12T00:00:00.000Z'), 'hour'),
    );
    expect(usage.buckets.map((bucket) => [bucket.bucket_start, bucket.request_count])).toEqual([
      ['2026-03-10T10:00:00.000Z', 2],
      ['2026-03-10T14:00:00.000Z', 1],
      ['2026-03-11T09:00:00.000Z', 1],
    ]);
    expect(usage.totals).toEqual({ request_count: 4, status_2xx: 2, status_4xx: 1, status_5xx: 0, rate_limited_count: 1, status_unknown: 0 });
  });

  it('rolls up to UTC days and includes the hour holding from', async () => {
    const usage = await handler.execute(
      new GetUsageQuery(A, KEY, new Date('2026-03-10T10:30:00.000Z'), new Date('2026-03-11T00:00:00.000Z'), 'day'),
    );
    expect(usage).toMatchObject({ api_key_id: KEY, from: '2026-03-10T10:30:00.000Z', to: '2026-03-11T00:00:00.000Z', granularity: 'day' });
    expect(usage.buckets).toHaveLength(1);
    expect(usage.buckets[0]).toMatchObject({ bucket_start: '2026-03-10T00:00:00.000Z', request_count: 3, status_2xx: 1, status_4xx: 1, rate_limited_count: 1 });
  });

  it('refuses a range that breaks the rules even when dispatched directly', async () => {
    await expect(
      handler.execute(new GetUsageQuery(A, KEY, new Date('2026-03-10T00:00:00.000Z'), new Date('2026-03-10T00:00:00.000Z'), 'day')),
    ).rejects.toBeInstanceOf(DomainError);
  });
});
