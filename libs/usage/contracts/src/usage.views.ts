/** Granularity of `GET /v1/usage` buckets (public-api-v1 › Me and Usage). */
export const USAGE_GRANULARITIES = ['hour', 'day'] as const;

export type UsageGranularity = (typeof USAGE_GRANULARITIES)[number];

/** The longest range `GET /v1/usage` answers (public-api-v1 › Limits: usage range). */
export const MAX_USAGE_RANGE_DAYS = 90;

/**
 * The five disjoint families of a window and their sum (public-api-v1 › Usage counter rules):
 * `request_count` = `status_2xx` + `status_4xx` + `status_5xx` + `rate_limited_count` + `status_unknown`.
 */
export interface UsageCountsView {
  request_count: number;
  status_2xx: number;
  status_4xx: number;
  status_5xx: number;
  rate_limited_count: number;
  status_unknown: number;
}

/** One bucket of the usage response. */
export interface UsageBucketView extends UsageCountsView {
  bucket_start: string;
  latency_p50_ms: number;
  latency_p95_ms: number;
  latency_p99_ms: number;
}

/** `GET /v1/usage` data (public-api-v1 › Usage response). */
export interface UsageView {
  api_key_id: string;
  from: string;
  to: string;
  granularity: UsageGranularity;
  /** Ascending by `bucket_start`; windows without traffic are omitted. */
  buckets: UsageBucketView[];
  totals: UsageCountsView;
}

/**
 * The usage of a whole account (every key, revoked ones included) over `[from, to)`: the operator
 * console's account charts. Same buckets as {@link UsageView}: per key and hour the counts add up and the
 * latency histograms merge, so the percentiles are those of all the account's requests of the window.
 */
export interface AccountUsageView {
  account_id: string;
  from: string;
  to: string;
  granularity: UsageGranularity;
  /** Ascending by `bucket_start`; windows without traffic are omitted. */
  buckets: UsageBucketView[];
  totals: UsageCountsView;
}

/** What one aggregation run did (ISO hour starts). */
export interface UsageAggregationResult {
  /** Hours recomputed, ascending. */
  hours: string[];
  /** Hour buckets (one per key and hour) written. */
  bucketCount: number;
  /** Hours closed by this run (final recomputation after the hour ended). */
  closedHours: string[];
}
