import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page } from '@leadflow/shared-kernel';
import type { DealView } from '@leadflow/pipeline-contracts';
import { DealsReadModel } from '../../ports/deals.read-model.port';
import { ListDealsQuery } from './list-deals.query';

@QueryHandler(ListDealsQuery)
export class ListDealsHandler implements IQueryHandler<ListDealsQuery> {
  constructor(private readonly deals: DealsReadModel) {}

  execute({ accountId, filter }: ListDealsQuery): Promise<Page<DealView>> {
    return this.deals.listDeals(accountId, filter);
  }
}
