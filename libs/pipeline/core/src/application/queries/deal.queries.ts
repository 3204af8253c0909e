import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { DealView, PipelineStageView } from '@leadflow/pipeline-contracts';
import type { DealListFilter } from '../ports/deals.read-model.port';

/** `GET /v1/pipeline/stages`: every stage with its real-time `contact_count`, one unpaginated page. */
export class ListPipelineStagesQuery extends Query<Page<PipelineStageView>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}

/** `GET /v1/pipeline/deals`: deals, `created_at DESC, id DESC`, optionally of one stage. */
export class ListDealsQuery extends Query<Page<DealView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: DealListFilter,
  ) {
    super();
  }
}
