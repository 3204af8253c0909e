import type { AccountId } from '@leadflow/shared-kernel';
import type { EventSpec } from '@leadflow/events-contracts';

/**
 * Test mode (operator-api › Test mode, issue 15 item 4), events side: persistence of a sandbox's copy and
 * reset, inside the caller's transaction, touching only the `events` schema.
 */
export abstract class EventsSandboxData {
  /** The account's events, oldest first, each with its editions in position order, in blueprint form. */
  abstract exportConfiguration(accountId: AccountId): Promise<EventSpec[]>;
  /**
   * Deletes the account's registrations and received custom events; events and editions stay. Answers `{
   * "<schema.table>": rows deleted }`.
   */
  abstract deleteAccountData(accountId: AccountId): Promise<Record<string, number>>;
}
