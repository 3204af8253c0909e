import type { AccountId } from '@leadflow/shared-kernel';
import type { KeyWithAccount } from './accounts.repository.port';

/**
 * Resolved API keys kept in process (issue 11, item 1), keyed by the sha256 hex of the presented key
 * (never the raw key). Implementations bound the entries (LRU), expire them within 60 s, and forget an
 * account's keys in every process when {@link invalidateAccount} is called, so a revocation or a change
 * of features or terms is seen within a second. Only found keys are cached; lifecycle (revoked, expired)
 * is still checked by the caller on every request against the clock.
 */
export abstract class ApiKeyCache {
  /** The key whose presented secret hashes to `secretHash`, from memory or else from `load`. */
  abstract find(secretHash: string, load: () => Promise<KeyWithAccount | null>): Promise<KeyWithAccount | null>;
  /** Forgets the account's keys everywhere once the current unit of work has committed (never throws). */
  abstract invalidateAccount(accountId: AccountId): Promise<void>;
}

/** No caching: every lookup loads (unit tests, tools). */
export class UncachedApiKeys extends ApiKeyCache {
  find(_secretHash: string, load: () => Promise<KeyWithAccount | null>): Promise<KeyWithAccount | null> {
    return load();
  }

  async invalidateAccount(): Promise<void> {}
}
