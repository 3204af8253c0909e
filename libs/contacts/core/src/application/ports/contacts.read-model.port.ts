import type { AccountId, KeysetPosition, Page } from '@leadflow/shared-kernel';
import type { ContactView, CustomFieldDefinitionView, TagView } from '@leadflow/contacts-contracts';

/** Keyset page over `(created_at, id)` descending (same shape as shared-platform's PageRequest). */
export interface KeysetPage {
  limit: number;
  after: KeysetPosition | null;
}

/** Keyset page over `(name, id)` ascending (tags). */
export interface NamePage {
  limit: number;
  after: { name: string; id: string } | null;
}

export interface ContactListFilter {
  /** Every word must appear (case-insensitively, literally) in email, first_name, last_name or company. */
  words: string[];
  tagId: string | null;
  page: KeysetPage;
  expandTags: boolean;
}

/**
 * Read side of the contacts context: response-shaped views straight from the tables. Merged contacts
 * are never returned; every query filters on the account.
 */
export abstract class ContactsReadModel {
  /** Sort `created_at DESC, id DESC`; `total_count` exact. */
  abstract listContacts(accountId: AccountId, filter: ContactListFilter): Promise<Page<ContactView>>;
  /** Null when missing, merged, or not a UUID. */
  abstract getContact(accountId: AccountId, contactId: string, options?: { expandTags?: boolean }): Promise<ContactView | null>;
  /** Tags on the contact, sorted by name then id. */
  abstract tagsOfContact(accountId: AccountId, contactId: string): Promise<TagView[]>;
  /** Sort `name ASC, id ASC`; `total_count` exact. */
  abstract listTags(accountId: AccountId, page: NamePage): Promise<Page<TagView>>;
  abstract listDefinitions(accountId: AccountId): Promise<CustomFieldDefinitionView[]>;
}
