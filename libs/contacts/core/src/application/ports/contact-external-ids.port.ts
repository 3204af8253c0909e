import type { AccountId } from '@leadflow/shared-kernel';

/**
 * External ids of contacts (`contacts.contact_external_ids`): the integrator's own id of a person,
 * unique per (account, external source, external id). The default source is ''. Writes join the
 * caller's unit of work.
 */
export abstract class ContactExternalIds {
  /** The contact (merged or not, possibly deleted since) holding this external id, or null. */
  abstract findContactId(accountId: AccountId, source: string, externalId: string): Promise<string | null>;
  /**
   * Links the external id to the contact; false when it is already linked (to this or another
   * contact: nothing is moved). A stale link to a deleted contact is replaced.
   */
  abstract link(accountId: AccountId, source: string, externalId: string, contactId: string, at: Date): Promise<boolean>;
}
