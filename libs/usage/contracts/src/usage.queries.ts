import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { AccountUsageView, UsageGranularity, UsageView } from './usage.views';

/**
 * `GET /v1/usage`: the usage of one key of the account over `[from, to)`, from the aggregated hour
 * buckets. The handler refuses a range that breaks the spec's rules with 400 `invalid_request`.
 */
export class GetUsageQuery extends Query<UsageView> {
  constructor(
    readonly accountId: AccountId,
    readonly apiKeyId: string,
    readonly from: Date,
    readonly to: Date,
    readonly granularity: UsageGranularity,
  ) {
    super();
  }
}

/**
 * The operator console's account charts: the usage of every key of the account over `[from, to)`, by
 * hour or UTC day, from the aggregated hour buckets (the same range rules as {@link GetUsageQuery}:
 * 400 `invalid_request` otherwise). An unknown account reads as no traffic.
 */
export class GetAccountUsageQuery extends Query<AccountUsageView> {
  constructor(
    readonly accountId: AccountId,
    readonly from: Date,
    readonly to: Date,
    readonly granularity: UsageGranularity,
  ) {
    super();
  }
}
