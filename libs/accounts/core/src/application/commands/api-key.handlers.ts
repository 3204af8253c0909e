import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { CreateApiKeyCommand, IssuedApiKey, RevokeApiKeyCommand } from '@leadflow/accounts-contracts';
import { AccountNotFoundError, ApiKeyNotFoundError } from '../../domain/accounts.errors';
import { AccountsRepository } from '../ports/accounts.repository.port';
import { AccountsSettings } from '../ports/accounts-settings.port';
import { issueApiKey } from './api-key-issuer';

/** `POST /admin/v1/accounts/{id}/api-keys`. 404 `not_found` for an unknown account. */
@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand> {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly settings: AccountsSettings,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, spec }: CreateApiKeyCommand): Promise<IssuedApiKey> {
    if (!(await this.repository.findAccount(accountId))) throw new AccountNotFoundError();
    const members = await this.repository.listTeamMembers(accountId);
    return issueApiKey(this.repository, this.clock, accountId, spec, this.settings.defaultKeyPerHour, members, '');
  }
}

/** `POST /admin/v1/accounts/{id}/api-keys/{key_id}/revoke`: the key answers 401 from the next request. */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, keyId }: RevokeApiKeyCommand): Promise<void> {
    if (!(await this.repository.revokeApiKey(accountId, keyId, this.clock.now()))) throw new ApiKeyNotFoundError();
  }
}
