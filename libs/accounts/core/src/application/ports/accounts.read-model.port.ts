import type { AccountId, KeysetPosition } from '@leadflow/shared-kernel';
import type { AccountState, ApiKeyState } from './accounts.repository.port';

/** Reads of the operator console (no writes); every method but the account list takes the AccountId first. */
export abstract class AccountsReadModel {
  /**
   * Accounts newest first (`created_at DESC, id DESC`), `limit + 1` rows after `after` (so the caller
   * knows whether there is more), and the exact number of accounts.
   */
  abstract listAccounts(limit: number, after: KeysetPosition | null): Promise<{ rows: AccountState[]; total: number }>;
  /** Every key of the account, newest first (revoked and expired ones included). */
  abstract listApiKeys(accountId: AccountId): Promise<ApiKeyState[]>;
}
