import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid } from '@leadflow/shared-kernel';
import { ListStagesQuery, StageView } from '@leadflow/pipeline-contracts';
import { PipelineReadModel } from '../../ports/pipeline.read-model.port';

@QueryHandler(ListStagesQuery)
export class ListStagesHandler implements IQueryHandler<ListStagesQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  async execute({ accountId, pipelineId }: ListStagesQuery): Promise<StageView[]> {
    if (pipelineId !== null && !isUuid(pipelineId)) return [];
    return this.readModel.listStages(accountId, pipelineId);
  }
}
