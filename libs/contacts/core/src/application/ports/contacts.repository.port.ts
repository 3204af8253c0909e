import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { ContactState } from '../../domain/contact.aggregate';
import type { Identity, IdentityKind } from '../../domain/contact-identity';
import type { CustomFieldDefinition } from '../../domain/custom-fields';

export interface TagState {
  id: string;
  name: string;
  color: string;
  description: string | null;
  category: string | null;
  /** `campaign:<slug>` for campaign tags. */
  systemKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NoteState {
  id: string;
  contactId: string;
  body: string;
  actor: Actor;
  createdAt: Date;
}

/** A stored identity matching a lookup, and the unmerged contact it counts for (the end of its merge chain). */
export interface IdentityOwner {
  kind: IdentityKind;
  value: string;
  contactId: string;
  survivorId: string;
}

/**
 * Write-side persistence of the contacts context. Every method takes the AccountId first and filters
 * on it; writes join the caller's unit of work. Ids that are not UUIDs find nothing.
 */
export abstract class ContactsRepository {
  /** The contact, merged or not; `lock` takes a row lock (inside a unit of work). */
  abstract findContact(accountId: AccountId, contactId: string, options?: { lock?: boolean }): Promise<ContactState | null>;
  /** Inserts the contact and its primary identities. Throws `IdentityTakenError` when the unique identity index refuses one. */
  abstract insertContact(contact: ContactState): Promise<void>;
  /** Writes every column of the contact (identities apart). */
  abstract updateContact(contact: ContactState): Promise<void>;
  /**
   * Makes `value` the contact's primary identity of `kind` (null removes it); the previous primary is
   * removed and a secondary of the same contact is promoted. Throws `IdentityTakenError` when another
   * contact holds it.
   */
  abstract setPrimaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string | null, at: Date): Promise<void>;
  /**
   * Adds a secondary identity of the contact (lead capture's new phone); false when the value is
   * already stored (for this or another contact): nothing is moved.
   */
  abstract addSecondaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string, at: Date): Promise<boolean>;
  /** Stored identities (primary or secondary) equal to any of `identities`, with their surviving contact. */
  abstract findIdentityOwners(accountId: AccountId, identities: readonly Identity[]): Promise<IdentityOwner[]>;
  /** Every stored identity (primary and secondary) of the contact, emails first, then by value. */
  abstract identitiesOf(accountId: AccountId, contactId: string): Promise<{ kind: IdentityKind; value: string; isPrimary: boolean }[]>;
  /**
   * Hands every identity of `fromContactId` to `toContactId` (one statement): the ones in `primaries`
   * become its primary details, the others secondary ones (the public merge).
   */
  abstract moveIdentities(accountId: AccountId, fromContactId: string, toContactId: string, primaries: readonly Identity[]): Promise<void>;
  /** Attaches to `toContactId` the tags of `fromContactId` it does not have (one statement); returns the tag ids newly attached. */
  abstract copyTags(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<string[]>;
  /** Ids of the contacts merged into `contactId`, directly or through a chain. */
  abstract absorbedInto(accountId: AccountId, contactId: string): Promise<string[]>;
  /** Deletes the contacts with their identities, tags and notes. */
  abstract deleteContacts(accountId: AccountId, contactIds: readonly string[]): Promise<void>;

  abstract listDefinitions(accountId: AccountId): Promise<CustomFieldDefinition[]>;
  abstract insertDefinitions(accountId: AccountId, definitions: readonly CustomFieldDefinition[], at: Date): Promise<void>;

  abstract findTags(accountId: AccountId, tagIds: readonly string[]): Promise<TagState[]>;
  abstract findTagBySystemKey(accountId: AccountId, systemKey: string): Promise<TagState | null>;
  abstract tagNameExists(accountId: AccountId, name: string): Promise<boolean>;
  /** Throws `TagNameTakenError` when the name is taken. */
  abstract insertTag(accountId: AccountId, tag: TagState): Promise<void>;
  /** Inserts unless the name or system key exists; true when inserted. */
  abstract insertTagIfAbsent(accountId: AccountId, tag: TagState): Promise<boolean>;
  /**
   * The account's tags with these exact names, the missing ones created with `template`'s color and
   * no category (a concurrent creation of the same name is tolerated). Order of `names`.
   */
  abstract ensureTags(accountId: AccountId, names: readonly string[], template: { color: string }, at: Date): Promise<TagState[]>;
  abstract contactTagIds(accountId: AccountId, contactId: string): Promise<string[]>;
  /** Attaches the tags not attached yet; returns the ids newly attached. */
  abstract attachTags(accountId: AccountId, contactId: string, tagIds: readonly string[], at: Date): Promise<string[]>;
  /** False when the tag was not on the contact. */
  abstract detachTag(accountId: AccountId, contactId: string, tagId: string): Promise<boolean>;

  abstract insertNote(accountId: AccountId, note: NoteState): Promise<void>;
}
