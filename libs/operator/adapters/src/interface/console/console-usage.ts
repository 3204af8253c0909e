import type { UsageBucketView, UsageCountsView } from '@leadflow/usage-contracts';

/** Ranges the usage charts offer (hours); the first is the default. */
export const USAGE_RANGES_HOURS = [24, 72, 168] as const;
const HOUR_MS = 3_600_000;

/** `?hours=` of a usage page: one of {@link USAGE_RANGES_HOURS}, else the default (24). */
export function usageHours(query: unknown): number {
  const raw = typeof query === 'object' && query !== null ? (query as Record<string, unknown>).hours : undefined;
  const hours = Number(raw);
  return (USAGE_RANGES_HOURS as readonly number[]).includes(hours) ? hours : USAGE_RANGES_HOURS[0];
}

/** `[from, to)` of the last `hours` whole UTC hours, the current hour included (`to` is the next hour's start). */
export function usageWindow(now: Date, hours: number): { from: Date; to: Date } {
  const to = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);
  return { from: new Date(to.getTime() - hours * HOUR_MS), to };
}

/**
 * What the charts draw, embedded in the page as JSON (`<script type="application/json" id="usage-data">`)
 * and read by the console script: one entry per hour of the window, ascending, hours without traffic as
 * zero counts and null latencies (buckets come from the usage context's aggregated hour buckets, which
 * omit them). Counts are requests; latencies milliseconds.
 */
export interface UsageSeries {
  scope: 'account' | 'key';
  /** ISO 8601 hour starts (UTC). */
  hours: string[];
  requests: number[];
  status_2xx: number[];
  status_4xx: number[];
  status_5xx: number[];
  rate_limited: number[];
  status_unknown: number[];
  p50: (number | null)[];
  p95: (number | null)[];
  p99: (number | null)[];
  totals: UsageCountsView;
  /** Dataset labels in the page's language. */
  labels: { requests: string; unknown: string; rate_limited: string };
}

/** Dense hourly series over `[from, to)` from the usage view's buckets (hour granularity). */
export function toUsageSeries(
  scope: UsageSeries['scope'],
  window: { from: Date; to: Date },
  buckets: UsageBucketView[],
  totals: UsageCountsView,
  labels: UsageSeries['labels'],
): UsageSeries {
  const byHour = new Map(buckets.map((bucket) => [new Date(bucket.bucket_start).getTime(), bucket]));
  const series: UsageSeries = {
    scope,
    hours: [],
    requests: [],
    status_2xx: [],
    status_4xx: [],
    status_5xx: [],
    rate_limited: [],
    status_unknown: [],
    p50: [],
    p95: [],
    p99: [],
    totals,
    labels,
  };
  for (let at = window.from.getTime(); at < window.to.getTime(); at += HOUR_MS) {
    const bucket = byHour.get(at);
    series.hours.push(new Date(at).toISOString());
    series.requests.push(bucket?.request_count ?? 0);
    series.status_2xx.push(bucket?.status_2xx ?? 0);
    series.status_4xx.push(bucket?.status_4xx ?? 0);
    series.status_5xx.push(bucket?.status_5xx ?? 0);
    series.rate_limited.push(bucket?.rate_limited_count ?? 0);
    series.status_unknown.push(bucket?.status_unknown ?? 0);
    series.p50.push(bucket ? bucket.latency_p50_ms : null);
    series.p95.push(bucket ? bucket.latency_p95_ms : null);
    series.p99.push(bucket ? bucket.latency_p99_ms : null);
  }
  return series;
}

/**
 * JSON safe inside `<script type="application/json">`: `<`, `>`, `&` and the line separators escaped, so
 * no value can close the element or open a comment.
 */
export function embeddedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
