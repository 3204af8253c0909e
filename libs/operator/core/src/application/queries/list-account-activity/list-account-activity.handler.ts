import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { Page, ResourceNotFoundError } from '@leadflow/shared-kernel';
import { GetAccountQuery } from '@leadflow/accounts-contracts';
import { AccountActivityReadModel, ActivityEntryView } from '../../ports/account-activity.read-model.port';
import { ListAccountActivityQuery } from './list-account-activity.query';

@QueryHandler(ListAccountActivityQuery)
export class ListAccountActivityHandler implements IQueryHandler<ListAccountActivityQuery> {
  constructor(
    private readonly queries: QueryBus,
    private readonly readModel: AccountActivityReadModel,
  ) {}

  async execute({ accountId, filter, page }: ListAccountActivityQuery): Promise<Page<ActivityEntryView>> {
    if (!(await this.queries.execute(new GetAccountQuery(accountId)))) {
      throw new ResourceNotFoundError('not_found', 'No such account.', { resource: 'account' });
    }
    return this.readModel.list(accountId, filter, page);
  }
}
