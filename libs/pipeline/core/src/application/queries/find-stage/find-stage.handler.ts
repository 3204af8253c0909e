import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid } from '@leadflow/shared-kernel';
import { FindStageQuery, StageView } from '@leadflow/pipeline-contracts';
import { PipelineReadModel } from '../../ports/pipeline.read-model.port';

@QueryHandler(FindStageQuery)
export class FindStageHandler implements IQueryHandler<FindStageQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  async execute({ accountId, stageId }: FindStageQuery): Promise<StageView | null> {
    return isUuid(stageId) ? this.readModel.findStage(accountId, stageId) : null;
  }
}
