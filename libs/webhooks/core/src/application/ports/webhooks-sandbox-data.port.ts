import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Test mode (operator-api › Test mode, issue 15 item 4), webhooks side: persistence of a sandbox's reset,
 * inside the caller's transaction, touching only the `webhooks` schema.
 */
export abstract class WebhooksSandboxData {
  /**
   * Deletes the account's deliveries, their attempts and the event samples; subscriptions stay. Answers
   * `{ "<schema.table>": rows deleted }`.
   */
  abstract deleteAccountData(accountId: AccountId): Promise<Record<string, number>>;
}
