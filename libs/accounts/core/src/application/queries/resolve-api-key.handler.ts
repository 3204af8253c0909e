import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { ApiKeyPrincipal, ResolveApiKeyQuery } from '@leadflow/accounts-contracts';
import { ApiKeySecret } from '../../domain/api-key-secret.value-object';
import { lifecycleOf } from '../../domain/api-key-lifecycle';
import { AccountsRepository } from '../ports/accounts.repository.port';

/**
 * Authentication: one indexed read by prefix, the sha256 of the presented key compared in constant
 * time, then lifecycle (revoked, expired) checked against the clock. Null for any failure, so every
 * failure answers the same 401 `invalid_api_key`.
 */
@QueryHandler(ResolveApiKeyQuery)
export class ResolveApiKeyHandler implements IQueryHandler<ResolveApiKeyQuery> {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ rawKey }: ResolveApiKeyQuery): Promise<ApiKeyPrincipal | null> {
    const presented = ApiKeySecret.parse(rawKey);
    if (!presented) return null;
    const key = await this.repository.findKeyByPrefix(presented.prefix);
    if (!key || !ApiKeySecret.sameHash(key.secretHash, presented.hash)) return null;
    const now = this.clock.now();
    if (lifecycleOf(key, now) !== 'active') return null;
    void this.repository.touchApiKey(key.id, now);
    return {
      keyId: key.id,
      keyName: key.name,
      keyPrefix: `lf_live_${key.prefix}`,
      accountId: key.accountId,
      accountName: key.accountName,
      scopes: key.scopes,
      features: key.features,
      perHour: key.perHour,
      eventsPerMinute: key.eventsPerMinute,
      apiTermsAccepted: key.apiTermsAccepted,
    };
  }
}
