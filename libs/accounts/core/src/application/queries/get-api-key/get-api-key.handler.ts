import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { ApiKeyView, GetApiKeyQuery, apiKeyModePrefix, inferPreset } from '@leadflow/accounts-contracts';
import { ApiKeyNotFoundError } from '../../../domain/accounts.errors';
import { lifecycleOf } from '../../../domain/api-key-lifecycle';
import { API_KEY_FORMAT_VERSION } from '../../../domain/api-key-secret.value-object';
import { AccountsRepository } from '../../ports/accounts.repository.port';

/** `GET /v1/me` data. */
@QueryHandler(GetApiKeyQuery)
export class GetApiKeyHandler implements IQueryHandler<GetApiKeyQuery> {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, keyId }: GetApiKeyQuery): Promise<ApiKeyView> {
    const [key, account] = await Promise.all([this.repository.findApiKey(accountId, keyId), this.repository.findAccount(accountId)]);
    if (!key || !account) throw new ApiKeyNotFoundError();
    return {
      key_id: key.id,
      key_name: key.name,
      key_prefix: `${apiKeyModePrefix(key.mode)}${key.prefix}`,
      key_format_version: API_KEY_FORMAT_VERSION,
      client_id: account.id,
      client_name: account.name,
      scopes: key.scopes,
      preset: inferPreset(key.scopes),
      lifecycle_state: lifecycleOf(key, this.clock.now()),
      created_at: key.createdAt.toISOString(),
      last_used_at: (key.lastUsedAt ?? this.clock.now()).toISOString(),
      expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
      rate_limits: { per_hour: key.perHour },
      mode: key.mode ?? 'live',
    };
  }
}
