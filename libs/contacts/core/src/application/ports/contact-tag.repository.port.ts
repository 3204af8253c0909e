import type { AccountId } from '@leadflow/shared-kernel';

/** The tags on each contact (`contacts.contact_tags`). Filters on the account; joins the caller's unit of work. */
export abstract class ContactTagRepository {
  abstract contactTagIds(accountId: AccountId, contactId: string): Promise<string[]>;
  /** Attaches the tags not attached yet; returns the ids newly attached. */
  abstract attachTags(accountId: AccountId, contactId: string, tagIds: readonly string[], at: Date): Promise<string[]>;
  /** False when the tag was not on the contact. */
  abstract detachTag(accountId: AccountId, contactId: string, tagId: string): Promise<boolean>;
  /** Attaches to `toContactId` the tags of `fromContactId` it does not have (one statement); returns the tag ids newly attached. */
  abstract copyTags(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<string[]>;
}
