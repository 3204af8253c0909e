import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { ApiKeySummaryView, ListApiKeysQuery, apiKeyModePrefix, inferPreset } from '@leadflow/accounts-contracts';
import { lifecycleOf } from '../../../domain/api-key-lifecycle';
import { AccountsReadModel } from '../../ports/accounts.read-model.port';

/** Every key of the account for the operator console, newest first, with its lifecycle at the clock's instant. */
@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery> {
  constructor(
    private readonly readModel: AccountsReadModel,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId }: ListApiKeysQuery): Promise<ApiKeySummaryView[]> {
    const now = this.clock.now();
    const keys = await this.readModel.listApiKeys(accountId);
    return keys.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: `${apiKeyModePrefix(key.mode)}${key.prefix}`,
      scopes: [...key.scopes],
      preset: inferPreset(key.scopes),
      lifecycle_state: lifecycleOf(key, now),
      per_hour: key.perHour,
      created_at: key.createdAt.toISOString(),
      last_used_at: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
      expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
      revoked_at: key.revokedAt ? key.revokedAt.toISOString() : null,
    }));
  }
}
