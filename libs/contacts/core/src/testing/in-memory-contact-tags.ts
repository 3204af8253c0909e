import type { AccountId } from '@leadflow/shared-kernel';
import { ContactTagRepository } from '../application/ports/contact-tag.repository.port';
import { InMemoryContactsStore } from './in-memory-contacts.store';

/** {@link ContactTagRepository} over the store. */
export class InMemoryContactTagRepository extends ContactTagRepository {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async contactTagIds(accountId: AccountId, contactId: string): Promise<string[]> {
    return this.store.contactTags.filter((row) => row.accountId === accountId && row.contactId === contactId).map((row) => row.tagId);
  }
  async attachTags(accountId: AccountId, contactId: string, tagIds: readonly string[], _at?: Date): Promise<string[]> {
    const current = await this.contactTagIds(accountId, contactId);
    const added = [...new Set(tagIds)].filter((tagId) => !current.includes(tagId));
    this.store.contactTags.push(...added.map((tagId) => ({ accountId, contactId, tagId })));
    return added;
  }
  async detachTag(accountId: AccountId, contactId: string, tagId: string): Promise<boolean> {
    const before = this.store.contactTags.length;
    this.store.contactTags = this.store.contactTags.filter((row) => !(row.accountId === accountId && row.contactId === contactId && row.tagId === tagId));
    return this.store.contactTags.length < before;
  }
  async copyTags(accountId: AccountId, fromContactId: string, toContactId: string): Promise<string[]> {
    const has = new Set(this.store.contactTags.filter((row) => row.accountId === accountId && row.contactId === toContactId).map((row) => row.tagId));
    const added = this.store.contactTags.filter((row) => row.accountId === accountId && row.contactId === fromContactId && !has.has(row.tagId)).map((row) => row.tagId);
    for (const tagId of added) this.store.contactTags.push({ accountId, contactId: toContactId, tagId });
    return added.sort();
  }
}
