import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Test mode (operator-api › Test mode, issue 15 item 4), quotes side: persistence of a sandbox's reset,
 * inside the caller's transaction, touching only the `quotes` schema.
 */
export abstract class QuotesSandboxData {
  /**
   * Deletes the account's quotes, their payments and its quote number sequences. Answers `{
   * "<schema.table>": rows deleted }`.
   */
  abstract deleteAccountData(accountId: AccountId): Promise<Record<string, number>>;
}
