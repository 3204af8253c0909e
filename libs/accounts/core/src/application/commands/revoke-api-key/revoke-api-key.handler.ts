import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { RevokeApiKeyCommand, RevokedApiKey, apiKeyModePrefix } from '@leadflow/accounts-contracts';
import { ApiKeyNotFoundError } from '../../../domain/accounts.errors';
import { AccountsActivityLog } from '../../ports/accounts-activity.port';
import { ApiKeyCache } from '../../ports/api-key-cache.port';
import { AccountsRepository } from '../../ports/accounts.repository.port';

/**
 * `POST /admin/v1/accounts/{id}/api-keys/{key_id}/revoke`: the key answers 401 from the next request
 * (every api process forgets the account's cached keys once the revocation commits).
 * Revoking a revoked key changes nothing and records nothing.
 */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly activity: AccountsActivityLog,
    private readonly cache: ApiKeyCache,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, keyId, actor }: RevokeApiKeyCommand): Promise<RevokedApiKey> {
    const key = await this.repository.findApiKey(accountId, keyId);
    if (!key) throw new ApiKeyNotFoundError();
    if (key.revokedAt) return { keyId: key.id, revokedAt: key.revokedAt };
    const now = this.clock.now();
    if (!(await this.repository.revokeApiKey(accountId, keyId, now))) throw new ApiKeyNotFoundError();
    await this.cache.invalidateAccount(accountId);
    await this.activity.record(accountId, [
      { type: 'api_key_revoked', actor, data: { key_id: key.id, key_name: key.name, key_prefix: `${apiKeyModePrefix(key.mode)}${key.prefix}` } },
    ]);
    return { keyId: key.id, revokedAt: now };
  }
}
