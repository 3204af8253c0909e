import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { ApiKeyCache, KeyWithAccount } from '@leadflow/accounts-core';
import { AccountCacheInvalidation, AccountScopedCache, TransactionHost } from '@leadflow/shared-platform';

/** Resolved keys kept per api process (most recently used first out when full). */
const MAX_KEYS = 10_000;
/** Lifetime of a cached key (milliseconds): the safety net behind the invalidations. */
const TTL_MS = 60_000;

/**
 * {@link ApiKeyCache} of the api processes (issue 11, item 1): an LRU of resolved keys keyed by the
 * sha256 of the presented key, on the platform's {@link AccountScopedCache} (topic `auth`), so that an
 * invalidation published after a revocation or an account change reaches every process over Redis
 * pub/sub; while that channel is down every request reads PostgreSQL.
 */
@Injectable()
export class LruApiKeyCache extends ApiKeyCache {
  private readonly keys: AccountScopedCache<KeyWithAccount>;

  constructor(
    private readonly invalidation: AccountCacheInvalidation,
    private readonly transactions: TransactionHost,
  ) {
    super();
    this.keys = new AccountScopedCache(invalidation, { topic: 'auth', max: MAX_KEYS, ttlMs: TTL_MS });
  }

  find(secretHash: string, load: () => Promise<KeyWithAccount | null>): Promise<KeyWithAccount | null> {
    return this.keys.lookup(secretHash, load, (key) => key.accountId);
  }

  async invalidateAccount(accountId: AccountId): Promise<void> {
    await this.transactions.afterCommit(() => this.invalidation.invalidate('auth', accountId));
  }
}
