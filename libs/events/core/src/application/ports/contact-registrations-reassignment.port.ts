import type { AccountId } from '@leadflow/shared-kernel';
import type { ContactRegistrationsReassignment } from '@leadflow/events-contracts';

/**
 * Moves a contact's event registrations to another contact (the contacts merge's published
 * `ReassignContactRegistrationsCommand`), except in the editions the other contact is registered in.
 * Both methods filter on the account; ids oldest first.
 */
export abstract class ContactRegistrationsReassignmentPort {
  /** What `reassign` would do, read only. */
  abstract plan(accountId: AccountId, fromContactId: string, toContactId: string): Promise<ContactRegistrationsReassignment>;
  /** Moves the registrations of editions `toContactId` is not registered in (one statement, in the caller's unit of work). */
  abstract reassign(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<ContactRegistrationsReassignment>;
}
