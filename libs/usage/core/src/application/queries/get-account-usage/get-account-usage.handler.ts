import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountUsageView, GetAccountUsageQuery } from '@leadflow/usage-contracts';
import { rollUp, totalsOf } from '../../../domain/usage-bucket';
import { UsageRange } from '../../../domain/usage-range.value-object';
import { floorHour } from '../../../domain/usage-time';
import { UsageBucketRepository } from '../../ports/usage-bucket.repository.port';
import { toBucketView, toCountsView } from '../get-usage/get-usage.handler';

/**
 * The operator console's account usage: every key's hour buckets of the account whose hour overlaps
 * `[from, to)`, rolled up per hour or UTC day across keys (counts summed, latency histograms merged).
 */
@QueryHandler(GetAccountUsageQuery)
export class GetAccountUsageHandler implements IQueryHandler<GetAccountUsageQuery> {
  constructor(private readonly buckets: UsageBucketRepository) {}

  async execute(query: GetAccountUsageQuery): Promise<AccountUsageView> {
    const range = UsageRange.of(query.from, query.to, query.granularity);
    const hours = await this.buckets.findHours(query.accountId, null, floorHour(range.from), range.to);
    const windows = rollUp(hours, range.granularity);
    return {
      account_id: query.accountId,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      granularity: range.granularity,
      buckets: windows.map(toBucketView),
      totals: toCountsView(totalsOf(windows)),
    };
  }
}
