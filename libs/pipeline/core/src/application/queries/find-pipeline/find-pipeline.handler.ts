import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { FindPipelineQuery, PipelineView } from '@leadflow/pipeline-contracts';
import { PipelineReadModel } from '../../ports/pipeline.read-model.port';

@QueryHandler(FindPipelineQuery)
export class FindPipelineHandler implements IQueryHandler<FindPipelineQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  execute({ accountId, slug }: FindPipelineQuery): Promise<PipelineView | null> {
    return this.readModel.findPipeline(accountId, slug);
  }
}
