import type { AccountId } from '@leadflow/shared-kernel';
import type { KeyWithAccount } from '../application/ports/accounts.repository.port';
import { ApiKeyCache } from '../application/ports/api-key-cache.port';

/** In-memory {@link ApiKeyCache} for handler unit tests: caches found keys by hash, records invalidations. */
export class InMemoryApiKeyCache extends ApiKeyCache {
  readonly entries = new Map<string, KeyWithAccount>();
  readonly invalidated: AccountId[] = [];
  loads = 0;

  async find(secretHash: string, load: () => Promise<KeyWithAccount | null>): Promise<KeyWithAccount | null> {
    const hit = this.entries.get(secretHash);
    if (hit) return hit;
    this.loads += 1;
    const key = await load();
    if (key) this.entries.set(secretHash, key);
    return key;
  }

  async invalidateAccount(accountId: AccountId): Promise<void> {
    this.invalidated.push(accountId);
    for (const [hash, key] of this.entries) if (key.accountId === accountId) this.entries.delete(hash);
  }
}
