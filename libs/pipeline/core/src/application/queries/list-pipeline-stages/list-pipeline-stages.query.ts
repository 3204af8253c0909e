import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { PipelineStageView } from '@leadflow/pipeline-contracts';

/** `GET /v1/pipeline/stages`: every stage with its real-time `contact_count`, one unpaginated page. */
export class ListPipelineStagesQuery extends Query<Page<PipelineStageView>> {
  constructor(readonly accountId: AccountId) {
    super();
  }
}
