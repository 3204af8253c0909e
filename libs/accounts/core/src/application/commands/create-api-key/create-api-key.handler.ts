import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { CreateApiKeyCommand, IssuedApiKey } from '@leadflow/accounts-contracts';
import { AccountNotFoundError, DuplicateNameError } from '../../../domain/accounts.errors';
import { AccountsActivityLog } from '../../ports/accounts-activity.port';
import { AccountsRepository } from '../../ports/accounts.repository.port';
import { AccountsSettings } from '../../ports/accounts-settings.port';
import { issueApiKey } from '../api-key-issuer';

/**
 * `POST /admin/v1/accounts/{id}/api-keys`. 404 `not_found` for an unknown account; 409
 * `duplicate_resource` for a name a live key has (a revoked key's name can be reused, for rotation).
 */
@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand> {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly activity: AccountsActivityLog,
    private readonly settings: AccountsSettings,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, spec, actor }: CreateApiKeyCommand): Promise<IssuedApiKey> {
    const account = await this.repository.findAccount(accountId);
    if (!account) throw new AccountNotFoundError();
    if (await this.repository.apiKeyNameInUse(accountId, spec.name)) throw new DuplicateNameError('name', spec.name);
    const members = await this.repository.listTeamMembers(accountId);
    return issueApiKey(
      { repository: this.repository, activity: this.activity, clock: this.clock, defaultPerHour: this.settings.defaultKeyPerHour },
      accountId,
      spec,
      { members, actor, field: '', mode: account.mode },
    );
  }
}
