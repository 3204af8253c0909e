import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GetUsageQuery, UsageBucketView, UsageCountsView, UsageView } from '@leadflow/usage-contracts';
import { rollUp, totalsOf, UsageCounts, UsageSummary } from '../../../domain/usage-bucket';
import { UsageRange } from '../../../domain/usage-range.value-object';
import { floorHour } from '../../../domain/usage-time';
import { UsageBucketRepository } from '../../ports/usage-bucket.repository.port';

/**
 * `GET /v1/usage` data: the calling key's hour buckets whose hour overlaps `[from, to)` (the hour
 * holding `from` included, since buckets are whole hours), rolled up to hours or UTC days. Only the
 * key's own rows are read (account and key filtered), so another key's traffic never shows.
 */
@QueryHandler(GetUsageQuery)
export class GetUsageHandler implements IQueryHandler<GetUsageQuery> {
  constructor(private readonly buckets: UsageBucketRepository) {}

  async execute(query: GetUsageQuery): Promise<UsageView> {
    const range = UsageRange.of(query.from, query.to, query.granularity);
    const hours = await this.buckets.findHours(query.accountId, query.apiKeyId, floorHour(range.from), range.to);
    const windows = rollUp(hours, range.granularity);
    return {
      api_key_id: query.apiKeyId,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      granularity: range.granularity,
      buckets: windows.map(toBucketView),
      totals: toCountsView(totalsOf(windows)),
    };
  }
}

/** One rolled-up window as the usage response shows it. */
export function toBucketView(window: UsageSummary): UsageBucketView {
  return {
    bucket_start: window.bucketStart.toISOString(),
    ...toCountsView(window),
    latency_p50_ms: window.latencyP50Ms,
    latency_p95_ms: window.latencyP95Ms,
    latency_p99_ms: window.latencyP99Ms,
  };
}

/** The five families and their sum, as the usage response names them. */
export function toCountsView(counts: UsageCounts): UsageCountsView {
  return {
    request_count: counts.requestCount,
    status_2xx: counts.status2xx,
    status_4xx: counts.status4xx,
    status_5xx: counts.status5xx,
    rate_limited_count: counts.rateLimited,
    status_unknown: counts.statusUnknown,
  };
}
