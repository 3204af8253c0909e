import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountModeView, GetAccountModeQuery } from '@leadflow/accounts-contracts';
import { AccountsRepository } from '../../ports/accounts.repository.port';

/** {@link GetAccountModeQuery}: live or test, and the sandbox link either way; null for an unknown account. */
@QueryHandler(GetAccountModeQuery)
export class GetAccountModeHandler implements IQueryHandler<GetAccountModeQuery> {
  constructor(private readonly repository: AccountsRepository) {}

  async execute({ accountId }: GetAccountModeQuery): Promise<AccountModeView | null> {
    const found = await this.repository.findAccountMode(accountId);
    return found ? { accountId, ...found } : null;
  }
}
