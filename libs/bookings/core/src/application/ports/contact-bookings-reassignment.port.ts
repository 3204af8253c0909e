import type { AccountId } from '@leadflow/shared-kernel';

/**
 * Moves the bookings of a contact (archived ones apart) to another contact (the contacts merge's published
 * `ReassignContactBookingsCommand`). Both methods filter on the account; ids oldest first.
 */
export abstract class ContactBookingsReassignment {
  /** Ids of the bookings of a contact (archived ones apart). */
  abstract idsOf(accountId: AccountId, contactId: string): Promise<string[]>;
  /** Links them to `toContactId` (one statement, in the caller's unit of work); returns the ids moved. */
  abstract reassign(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<string[]>;
}
