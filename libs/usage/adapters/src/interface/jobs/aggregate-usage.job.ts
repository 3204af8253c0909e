/** Queue of the usage aggregation (prefixed by QueueModule with `<REDIS_PREFIX>:bull`). */
export const USAGE_AGGREGATION_QUEUE = 'usage-aggregation';

/** Job name and scheduler id of the repeatable aggregation. */
export const AGGREGATE_USAGE_JOB = 'aggregate-usage';

/**
 * Every 2 minutes: the current hour's buckets lag the live counters by at most that (plus a run's
 * duration), and an hour is closed within 2 minutes after its grace (5 minutes after its end).
 */
export const USAGE_AGGREGATION_EVERY_MS = 2 * 60_000;

/** The job carries no data: each run reads the clock and the pending hours. */
export type AggregateUsageJob = Record<string, never>;
