import type { AccountId } from '@leadflow/shared-kernel';

/** Test sends of an account in a window. */
export interface TestSendUsage {
  used: number;
  /** Creation time of the oldest test send of the window, null when none. */
  oldest: Date | null;
}

/**
 * The account's test sends (outgoing emails with `is_test`), the shared counter of the test quota.
 * Must run inside a unit of work: it serialises the account's test sends (a transaction-scoped lock)
 * until the caller's transaction ends, so two concurrent sends cannot both take the last slot.
 */
export abstract class TestSendLedger {
  abstract lockAndCount(accountId: AccountId, since: Date): Promise<TestSendUsage>;
}
