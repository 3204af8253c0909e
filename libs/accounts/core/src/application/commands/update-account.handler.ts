import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountView, UpdateAccountCommand } from '@leadflow/accounts-contracts';
import { AccountNotFoundError } from '../../domain/accounts.errors';
import { AccountsRepository } from '../ports/accounts.repository.port';
import { toAccountView } from '../queries/account.view';

/** `PATCH /admin/v1/accounts/{id}`: quote defaults merge with the current ones. 404 `not_found`. */
@CommandHandler(UpdateAccountCommand)
export class UpdateAccountHandler implements ICommandHandler<UpdateAccountCommand> {
  constructor(private readonly repository: AccountsRepository) {}

  async execute({ accountId, patch }: UpdateAccountCommand): Promise<AccountView> {
    const account = await this.repository.findAccount(accountId);
    if (!account) throw new AccountNotFoundError();
    const next = {
      ...(patch.features !== undefined ? { features: [...new Set(patch.features)] } : {}),
      ...(patch.apiTermsAccepted !== undefined ? { apiTermsAccepted: patch.apiTermsAccepted } : {}),
      ...(patch.timezone !== undefined ? { timezone: patch.timezone } : {}),
      ...(patch.quoteDefaults !== undefined ? { quoteDefaults: { ...account.quoteDefaults, ...patch.quoteDefaults } } : {}),
    };
    await this.repository.updateAccount(accountId, next);
    return toAccountView({ ...account, ...next });
  }
}
