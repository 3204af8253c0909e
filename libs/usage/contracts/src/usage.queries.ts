import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { UsageGranularity, UsageView } from './usage.views';

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
