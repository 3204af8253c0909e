import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListSystemsQuery, SystemView } from '@leadflow/accounts-contracts';
import { AccountsRepository } from '../../ports/accounts.repository.port';

@QueryHandler(ListSystemsQuery)
export class ListSystemsHandler implements IQueryHandler<ListSystemsQuery> {
  constructor(private readonly repository: AccountsRepository) {}

  async execute({ accountId }: ListSystemsQuery): Promise<SystemView[]> {
    const systems = await this.repository.listSystems(accountId);
    return systems.map(({ id, name, isMain, isActive }) => ({ id, name, isMain, isActive }));
  }
}
