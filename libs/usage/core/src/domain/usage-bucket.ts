import type { AccountId } from '@leadflow/shared-kernel';
import { LatencyHistogram } from './latency-histogram.value-object';
import { floorDay, floorHour } from './usage-time';

/** The five disjoint families of a window and their sum (public-api-v1 › Usage counter rules (1)). */
export interface UsageCounts {
  requestCount: number;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  rateLimited: number;
  statusUnknown: number;
}

/**
 * The live counters of one key for one hour, as the request path recorded them: requests started
 * (authenticated), requests finished per family, and the latency histogram of the finished ones.
 */
export interface KeyHourCounters {
  accountId: AccountId;
  apiKeyId: string;
  hour: Date;
  started: number;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  rateLimited: number;
  latency: LatencyHistogram;
}

/** The aggregated usage of one key for one UTC hour (a row of `usage.hour_buckets`). */
export interface HourBucket extends UsageCounts {
  accountId: AccountId;
  apiKeyId: string;
  bucketStart: Date;
  latency: LatencyHistogram;
  /** Final: recomputed after the hour ended (a late outcome may still reopen it). */
  closed: boolean;
}

/** A bucket of the usage response: counts and latency percentiles of one window. */
export interface UsageSummary extends UsageCounts {
  bucketStart: Date;
  latencyP50Ms: number;
  latencyP95Ms: number;
  latencyP99Ms: number;
}

export const ZERO_COUNTS: UsageCounts = Object.freeze({
  requestCount: 0,
  status2xx: 0,
  status4xx: 0,
  status5xx: 0,
  rateLimited: 0,
  statusUnknown: 0,
});

/**
 * Derives an hour bucket from live counters. Every started request is in exactly one family:
 * its finished family, or `status_unknown` when no outcome was recorded (still in flight, or the
 * outcome's write failed). A request whose start was not recorded but whose outcome was is still
 * counted once (`request_count` is never below the finished total).
 */
export function hourBucketFromCounters(counters: KeyHourCounters, closed: boolean): HourBucket {
  const finished = counters.status2xx + counters.status4xx + counters.status5xx + counters.rateLimited;
  const requestCount = Math.max(counters.started, finished);
  return {
    accountId: counters.accountId,
    apiKeyId: counters.apiKeyId,
    bucketStart: floorHour(counters.hour),
    requestCount,
    status2xx: counters.status2xx,
    status4xx: counters.status4xx,
    status5xx: counters.status5xx,
    rateLimited: counters.rateLimited,
    statusUnknown: requestCount - finished,
    latency: counters.latency,
    closed,
  };
}

export function addCounts(a: UsageCounts, b: UsageCounts): UsageCounts {
  return {
    requestCount: a.requestCount + b.requestCount,
    status2xx: a.status2xx + b.status2xx,
    status4xx: a.status4xx + b.status4xx,
    status5xx: a.status5xx + b.status5xx,
    rateLimited: a.rateLimited + b.rateLimited,
    statusUnknown: a.statusUnknown + b.statusUnknown,
  };
}

function countsOf(bucket: UsageCounts): UsageCounts {
  const { requestCount, status2xx, status4xx, status5xx, rateLimited, statusUnknown } = bucket;
  return { requestCount, status2xx, status4xx, status5xx, rateLimited, statusUnknown };
}

/**
 * Rolls hour buckets up to the asked granularity: one summary per hour, or per UTC day (counts
 * summed, hourly latency histograms merged, so a day's percentiles are those of all its requests,
 * within the histogram's 1 % accuracy). Windows without traffic are omitted; ascending order.
 */
export function rollUp(hours: HourBucket[], granularity: 'hour' | 'day'): UsageSummary[] {
  const windows = new Map<number, { counts: UsageCounts; latency: LatencyHistogram }>();
  for (const hour of hours) {
    if (hour.requestCount <= 0) continue;
    const start = (granularity === 'day' ? floorDay(hour.bucketStart) : floorHour(hour.bucketStart)).getTime();
    const window = windows.get(start);
    windows.set(
      start,
      window
        ? { counts: addCounts(window.counts, hour), latency: window.latency.merge(hour.latency) }
        : { counts: countsOf(hour), latency: hour.latency },
    );
  }
  return [...windows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, { counts, latency }]) => ({
      bucketStart: new Date(start),
      ...counts,
      latencyP50Ms: latency.percentile(0.5),
      latencyP95Ms: latency.percentile(0.95),
      latencyP99Ms: latency.percentile(0.99),
    }));
}

/** Sum of the families over every window. */
export function totalsOf(windows: UsageCounts[]): UsageCounts {
  return windows.reduce<UsageCounts>((sum, window) => addCounts(sum, window), { ...ZERO_COUNTS });
}
