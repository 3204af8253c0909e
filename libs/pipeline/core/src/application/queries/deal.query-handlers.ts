import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page, unpaginated } from '@leadflow/shared-kernel';
import type { DealView, PipelineStageView } from '@leadflow/pipeline-contracts';
import { DealsReadModel } from '../ports/deals.read-model.port';
import { ListDealsQuery, ListPipelineStagesQuery } from './deal.queries';

@QueryHandler(ListPipelineStagesQuery)
export class ListPipelineStagesHandler implements IQueryHandler<ListPipelineStagesQuery> {
  constructor(private readonly deals: DealsReadModel) {}

  async execute({ accountId }: ListPipelineStagesQuery): Promise<Page<PipelineStageView>> {
    return unpaginated(await this.deals.listStages(accountId));
  }
}

@QueryHandler(ListDealsQuery)
export class ListDealsHandler implements IQueryHandler<ListDealsQuery> {
  constructor(private readonly deals: DealsReadModel) {}

  execute({ accountId, filter }: ListDealsQuery): Promise<Page<DealView>> {
    return this.deals.listDeals(accountId, filter);
  }
}
