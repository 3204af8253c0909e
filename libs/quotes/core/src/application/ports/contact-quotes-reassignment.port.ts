import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Moves the quotes linked to a contact to another contact (the contacts merge's published
 * `ReassignContactQuotesCommand`). Both methods filter on the account; ids oldest first.
 */
export abstract class ContactQuotesReassignment {
  /** Ids of the quotes linked to a contact. */
  abstract idsOf(accountId: AccountId, contactId: string): Promise<string[]>;
  /** Links them to `toContactId` (one statement, in the caller's unit of work); returns the ids moved. */
  abstract reassign(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<string[]>;
}
