import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FindStageBySlugQuery, StageView } from '@leadflow/pipeline-contracts';
import { PipelineReadModel } from '../../ports/pipeline.read-model.port';

@QueryHandler(FindStageBySlugQuery)
export class FindStageBySlugHandler implements IQueryHandler<FindStageBySlugQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  execute({ accountId, pipelineSlug, stageSlug }: FindStageBySlugQuery): Promise<StageView | null> {
    return this.readModel.findStageBySlug(accountId, pipelineSlug, stageSlug);
  }
}
