import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** Activity-log entry types written by the accounts context. */
export type AccountActivityType = 'api_key_created' | 'api_key_revoked' | 'account_updated';

export interface AccountActivity {
  type: AccountActivityType;
  actor: Actor;
  /** JSON-safe; never a raw key. */
  data: Record<string, unknown>;
}

/**
 * The account's activity log (what the operator lists with `GET /admin/v1/accounts/{id}/activity`).
 * Entries join the caller's unit of work, so they commit or roll back with the change they describe.
 */
export abstract class AccountsActivityLog {
  abstract record(accountId: AccountId, entries: readonly AccountActivity[]): Promise<void>;
}
