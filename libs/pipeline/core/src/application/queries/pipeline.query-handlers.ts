import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid } from '@leadflow/shared-kernel';
import {
  FindPipelineQuery,
  FindStageBySlugQuery,
  FindStageQuery,
  ListPipelinesQuery,
  ListStagesQuery,
  PipelineView,
  StageView,
} from '@leadflow/pipeline-contracts';
import { PipelineReadModel } from '../ports/pipeline.read-model.port';

@QueryHandler(ListPipelinesQuery)
export class ListPipelinesHandler implements IQueryHandler<ListPipelinesQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  execute({ accountId }: ListPipelinesQuery): Promise<PipelineView[]> {
    return this.readModel.listPipelines(accountId);
  }
}

@QueryHandler(FindPipelineQuery)
export class FindPipelineHandler implements IQueryHandler<FindPipelineQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  execute({ accountId, slug }: FindPipelineQuery): Promise<PipelineView | null> {
    return this.readModel.findPipeline(accountId, slug);
  }
}

@QueryHandler(FindStageQuery)
export class FindStageHandler implements IQueryHandler<FindStageQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  async execute({ accountId, stageId }: FindStageQuery): Promise<StageView | null> {
    return isUuid(stageId) ? this.readModel.findStage(accountId, stageId) : null;
  }
}

@QueryHandler(FindStageBySlugQuery)
export class FindStageBySlugHandler implements IQueryHandler<FindStageBySlugQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  execute({ accountId, pipelineSlug, stageSlug }: FindStageBySlugQuery): Promise<StageView | null> {
    return this.readModel.findStageBySlug(accountId, pipelineSlug, stageSlug);
  }
}

@QueryHandler(ListStagesQuery)
export class ListStagesHandler implements IQueryHandler<ListStagesQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  async execute({ accountId, pipelineId }: ListStagesQuery): Promise<StageView[]> {
    if (pipelineId !== null && !isUuid(pipelineId)) return [];
    return this.readModel.listStages(accountId, pipelineId);
  }
}
