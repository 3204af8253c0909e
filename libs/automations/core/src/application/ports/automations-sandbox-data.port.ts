import type { AccountId } from '@leadflow/shared-kernel';
import type { ExportedAutomation } from '@leadflow/automations-contracts';

/**
 * Test mode (operator-api › Test mode, issue 15 item 4), automations side: persistence of a sandbox's copy
 * and reset, inside the caller's transaction, touching only the `automations` schema.
 */
export abstract class AutomationsSandboxData {
  /**
   * The account's automations that are not archived, oldest first, in blueprint form (stage ids as
   * stored).
   */
  abstract exportConfiguration(accountId: AccountId): Promise<ExportedAutomation[]>;
  /**
   * Deletes the account's executions and their steps; automations stay. Answers `{ "<schema.table>":
   * rows deleted }`.
   */
  abstract deleteAccountData(accountId: AccountId): Promise<Record<string, number>>;
}
