import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListPipelinesQuery, PipelineView } from '@leadflow/pipeline-contracts';
import { PipelineReadModel } from '../../ports/pipeline.read-model.port';

@QueryHandler(ListPipelinesQuery)
export class ListPipelinesHandler implements IQueryHandler<ListPipelinesQuery> {
  constructor(private readonly readModel: PipelineReadModel) {}

  execute({ accountId }: ListPipelinesQuery): Promise<PipelineView[]> {
    return this.readModel.listPipelines(accountId);
  }
}
