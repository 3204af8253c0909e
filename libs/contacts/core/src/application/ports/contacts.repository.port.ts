import type { AccountId } from '@leadflow/shared-kernel';
import type { ContactState } from '../../domain/contact.aggregate';

/**
 * The contact aggregate's persistence (`contacts.contacts`; its primary identities are inserted with
 * it). Every method takes the AccountId first and filters on it; writes join the caller's unit of
 * work. Ids that are not UUIDs find nothing. The other write ports of the context:
 * ContactIdentityRepository, TagRepository, ContactTagRepository, CustomFieldDefinitionRepository,
 * ContactNoteRepository.
 */
export abstract class ContactsRepository {
  /** The contact, merged or not; `lock` takes a row lock (inside a unit of work). */
  abstract findContact(accountId: AccountId, contactId: string, options?: { lock?: boolean }): Promise<ContactState | null>;
  /** Inserts the contact and its primary identities. Throws `IdentityTakenError` when the unique identity index refuses one. */
  abstract insertContact(contact: ContactState): Promise<void>;
  /** Writes every column of the contact (identities apart). */
  abstract updateContact(contact: ContactState): Promise<void>;
  /** Ids of the contacts merged into `contactId`, directly or through a chain. */
  abstract absorbedInto(accountId: AccountId, contactId: string): Promise<string[]>;
  /** Deletes the contacts with their identities, tags and notes. */
  abstract deleteContacts(accountId: AccountId, contactIds: readonly string[]): Promise<void>;
}
