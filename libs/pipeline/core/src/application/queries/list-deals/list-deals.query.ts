import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { DealView } from '@leadflow/pipeline-contracts';
import type { DealListFilter } from '../../ports/deals.read-model.port';

/** `GET /v1/pipeline/deals`: deals, `created_at DESC, id DESC`, optionally of one stage. */
export class ListDealsQuery extends Query<Page<DealView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: DealListFilter,
  ) {
    super();
  }
}
