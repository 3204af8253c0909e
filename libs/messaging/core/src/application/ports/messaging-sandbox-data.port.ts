import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Test mode (operator-api › Test mode, issue 15 item 4), messaging side: persistence of a sandbox's reset,
 * inside the caller's transaction, touching only the `messaging` schema.
 */
export abstract class MessagingSandboxData {
  /**
   * Deletes the account's outgoing emails and their status changes, email threads, conversations and
   * their messages; senders stay. Answers `{ "<schema.table>": rows deleted }`.
   */
  abstract deleteAccountData(accountId: AccountId): Promise<Record<string, number>>;
}
