import { asAccountId } from '@leadflow/shared-kernel';
import { LatencyHistogram } from './latency-histogram.value-object';
import { HourBucket, hourBucketFromCounters, KeyHourCounters, rollUp, totalsOf } from './usage-bucket';
import { floorDay, floorHour } from './usage-time';

const ACCOUNT = asAccountId('0b7c4c39-2f3e-4a8e-9d7a-111111111111');
const KEY = '5d2f0a3e-7c1b-4f7e-8a55-222222222222';

function counters(overrides: Partial<KeyHourCounters>): KeyHourCounters {
  return {
    accountId: ACCOUNT,
    apiKeyId: KEY,
    hour: new Date('2026-03-10T10:00:00.000Z'),
    started: 0,
    status2xx: 0,
    status4xx: 0,
    status5xx: 0,
    rateLimited: 0,
    latency: LatencyHistogram.empty(),
    ...overrides,
  };
}

function hour(start: string, counts: Partial<HourBucket>, latencies: number[] = []): HourBucket {
  return {
    ...hourBucketFromCounters(counters({ hour: new Date(start) }), true),
    requestCount: 0,
    ...counts,
    latency: LatencyHistogram.of(latencies),
  };
}

describe('usage buckets (Usage response and counter rules)', () => {
  it('floors instants to the UTC hour and the UTC day', () => {
    expect(floorHour(new Date('2026-03-10T10:59:59.999Z')).toISOString()).toBe('2026-03-10T10:00:00.000Z');
    expect(floorDay(new Date('2026-03-10T23:59:59.999Z')).toISOString()).toBe('2026-03-10T00:00:00.000Z');
  });

  it('rule 1: the five families are disjoint and sum to request_count', () => {
    const bucket = hourBucketFromCounters(counters({ started: 10, status2xx: 4, status4xx: 2, status5xx: 1, rateLimited: 2 }), false);
    expect(bucket).toMatchObject({ requestCount: 10, status2xx: 4, status4xx: 2, status5xx: 1, rateLimited: 2, statusUnknown: 1 });
    expect(bucket.status2xx + bucket.status4xx + bucket.status5xx + bucket.rateLimited + bucket.statusUnknown).toBe(bucket.requestCount);
  });

  it('rule 2: a request started and not finished is status_unknown, never a success', () => {
    const bucket = hourBucketFromCounters(counters({ started: 3, status2xx: 1 }), false);
    expect(bucket).toMatchObject({ requestCount: 3, status2xx: 1, statusUnknown: 2 });
  });

  it('rule 2: a request whose start was not recorded but whose outcome was is counted once, in its family', () => {
    const bucket = hourBucketFromCounters(counters({ started: 1, status2xx: 1, status5xx: 1 }), false);
    expect(bucket).toMatchObject({ requestCount: 2, status2xx: 1, status5xx: 1, statusUnknown: 0 });
  });

  it('rolls hours up by UTC day, sorted ascending, omitting windows without traffic', () => {
    const hours = [
      hour('2026-03-12T08:00:00.000Z', { requestCount: 1, status2xx: 1 }, [40]),
      hour('2026-03-10T10:00:00.000Z', { requestCount: 3, status2xx: 2, statusUnknown: 1 }, [10, 20]),
      hour('2026-03-10T23:00:00.000Z', { requestCount: 2, status4xx: 1, rateLimited: 1 }, [30, 1000]),
      hour('2026-03-11T05:00:00.000Z', { requestCount: 0 }),
    ];
    const days = rollUp(hours, 'day');
    expect(days.map((day) => day.bucketStart.toISOString())).toEqual(['2026-03-10T00:00:00.000Z', '2026-03-12T00:00:00.000Z']);
    expect(days[0]).toMatchObject({ requestCount: 5, status2xx: 2, status4xx: 1, rateLimited: 1, statusUnknown: 1, status5xx: 0 });
    // The day's p50 is the median of its four measured latencies (10, 20, 30, 1000): the 2nd, 20 ms.
    expect(days[0].latencyP50Ms).toBeCloseTo(20, -0.5);
    expect(days[0].latencyP99Ms).toBeGreaterThan(990);
    expect(totalsOf(days)).toEqual({ requestCount: 6, status2xx: 3, status4xx: 1, status5xx: 0, rateLimited: 1, statusUnknown: 1 });
  });

  it('keeps one bucket per hour with hour granularity', () => {
    const hours = [
      hour('2026-03-10T11:00:00.000Z', { requestCount: 1, status2xx: 1 }, [5]),
      hour('2026-03-10T10:00:00.000Z', { requestCount: 2, status2xx: 2 }, [5, 7]),
    ];
    expect(rollUp(hours, 'hour').map((bucket) => [bucket.bucketStart.toISOString(), bucket.requestCount])).toEqual([
      ['2026-03-10T10:00:00.000Z', 2],
      ['2026-03-10T11:00:00.000Z', 1],
    ]);
  });
});
