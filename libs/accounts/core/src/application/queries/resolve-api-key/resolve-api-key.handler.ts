import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { ApiKeyPrincipal, ResolveApiKeyQuery, apiKeyModePrefix } from '@leadflow/accounts-contracts';
import { ApiKeySecret } from '../../../domain/api-key-secret.value-object';
import { lifecycleOf } from '../../../domain/api-key-lifecycle';
import { ApiKeyCache } from '../../ports/api-key-cache.port';
import { AccountsRepository, KeyWithAccount } from '../../ports/accounts.repository.port';

/**
 * Authentication (ARCHITECTURE.md › Request path; issue 11, item 1): the key is looked up in the
 * process's {@link ApiKeyCache} by the sha256 of the presented key, else by one indexed read by prefix
 * with the hash compared in constant time; then its lifecycle (revoked, expired) is checked against the
 * clock on every request, so a cached key stops at its expiry instant. `last_used_at` is written off the
 * request path, at most once a minute per key. Null for any failure, so every failure answers the same
 * 401 `invalid_api_key`.
 */
@QueryHandler(ResolveApiKeyQuery)
export class ResolveApiKeyHandler implements IQueryHandler<ResolveApiKeyQuery> {
  /** Key record (as the cache holds it) → its principal; collected with the record. */
  private readonly principals = new WeakMap<KeyWithAccount, ApiKeyPrincipal>();

  constructor(
    private readonly repository: AccountsRepository,
    private readonly cache: ApiKeyCache,
    private readonly clock: Clock,
  ) {}

  async execute({ rawKey }: ResolveApiKeyQuery): Promise<ApiKeyPrincipal | null> {
    const presented = ApiKeySecret.parse(rawKey);
    if (!presented) return null;
    const key = await this.cache.find(presented.hash, async () => {
      const found = await this.repository.findKeyByPrefix(presented.prefix);
      return found && ApiKeySecret.sameHash(found.secretHash, presented.hash) ? found : null;
    });
    // the cache is keyed by the presented key's hash and holds only keys whose stored hash matched it (the loader above)
    if (!key) return null;
    const now = this.clock.now();
    if (lifecycleOf(key, now) !== 'active') return null;
    void this.repository.touchApiKey(key.accountId, key.id, now);
    return this.principalOf(key);
  }

  /**
   * The principal of a resolved key, built once per key record: the cache hands back the same record
   * while the key stays cached (a change to the key or its account evicts it), so requests share one
   * frozen principal instead of building one each.
   */
  private principalOf(key: KeyWithAccount): ApiKeyPrincipal {
    let principal = this.principals.get(key);
    if (principal) return principal;
    principal = Object.freeze({
      keyId: key.id,
      keyName: key.name,
      keyPrefix: `${apiKeyModePrefix(key.mode)}${key.prefix}`,
      accountId: key.accountId,
      accountName: key.accountName,
      scopes: key.scopes,
      features: key.features,
      perHour: key.perHour,
      eventsPerMinute: key.eventsPerMinute,
      apiTermsAccepted: key.apiTermsAccepted,
      createdAt: key.createdAt,
      expiresAt: key.expiresAt,
      mode: key.mode ?? 'live',
    });
    this.principals.set(key, principal);
    return principal;
  }
}
