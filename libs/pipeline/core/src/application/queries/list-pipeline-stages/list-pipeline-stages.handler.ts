import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page, unpaginated } from '@leadflow/shared-kernel';
import type { PipelineStageView } from '@leadflow/pipeline-contracts';
import { DealsReadModel } from '../../ports/deals.read-model.port';
import { ListPipelineStagesQuery } from './list-pipeline-stages.query';

@QueryHandler(ListPipelineStagesQuery)
export class ListPipelineStagesHandler implements IQueryHandler<ListPipelineStagesQuery> {
  constructor(private readonly deals: DealsReadModel) {}

  async execute({ accountId }: ListPipelineStagesQuery): Promise<Page<PipelineStageView>> {
    return unpaginated(await this.deals.listStages(accountId));
  }
}
