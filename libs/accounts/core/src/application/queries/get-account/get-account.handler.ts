import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountView, GetAccountQuery } from '@leadflow/accounts-contracts';
import { AccountsRepository } from '../../ports/accounts.repository.port';
import { toAccountView } from '../account.view';

@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery> {
  constructor(private readonly repository: AccountsRepository) {}

  async execute({ accountId }: GetAccountQuery): Promise<AccountView | null> {
    const account = await this.repository.findAccount(accountId);
    return account ? toAccountView(account) : null;
  }
}
