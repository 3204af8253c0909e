import type { AccountId } from '@leadflow/shared-kernel';

/**
 * The account's unsubscribe list (`contacts.email_unsubscribes`): addresses, lowercase, that asked to
 * receive no more emails. Writes join the caller's unit of work.
 */
export abstract class EmailUnsubscribes {
  abstract isUnsubscribed(accountId: AccountId, email: string): Promise<boolean>;
  /** Idempotent: adds (`true`) or removes (`false`) the address. */
  abstract set(accountId: AccountId, email: string, unsubscribed: boolean, at: Date): Promise<void>;
}
