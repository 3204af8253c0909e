import { AccountId, newId } from '@leadflow/shared-kernel';
import { TagRepository, TagState } from '../application/ports/tag.repository.port';
import { TagNameTakenError } from '../domain/contacts.errors';
import { InMemoryContactsStore } from './in-memory-contacts.store';

/** {@link TagRepository} over the store, with the unique tag-name rule of the table. */
export class InMemoryTagRepository extends TagRepository {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async findTags(accountId: AccountId, tagIds: readonly string[]): Promise<TagState[]> {
    return this.store.tags.filter((tag) => tag.accountId === accountId && tagIds.includes(tag.id)).map(({ accountId: _a, ...tag }) => tag);
  }
  async findTagBySystemKey(accountId: AccountId, systemKey: string): Promise<TagState | null> {
    const found = this.store.tags.find((tag) => tag.accountId === accountId && tag.systemKey === systemKey);
    if (!found) return null;
    const { accountId: _a, ...tag } = found;
    return tag;
  }
  async tagNameExists(accountId: AccountId, name: string): Promise<boolean> {
    return this.store.tags.some((tag) => tag.accountId === accountId && tag.name === name);
  }
  async insertTag(accountId: AccountId, tag: TagState): Promise<void> {
    if (await this.tagNameExists(accountId, tag.name)) throw new TagNameTakenError(tag.name);
    this.store.tags.push({ ...tag, accountId });
  }
  async insertTagIfAbsent(accountId: AccountId, tag: TagState): Promise<boolean> {
    const taken = (await this.tagNameExists(accountId, tag.name)) || (tag.systemKey !== null && (await this.findTagBySystemKey(accountId, tag.systemKey)) !== null);
    if (!taken) this.store.tags.push({ ...tag, accountId });
    return !taken;
  }
  async ensureTags(accountId: AccountId, names: readonly string[], template: { color: string }, at: Date): Promise<TagState[]> {
    for (const name of names) {
      if (!(await this.tagNameExists(accountId, name))) {
        this.store.tags.push({ id: newId(), accountId, name, color: template.color, description: null, category: null, systemKey: null, createdAt: at, updatedAt: at });
      }
    }
    return names.map((name) => {
      const { accountId: _a, ...tag } = this.store.tags.find((row) => row.accountId === accountId && row.name === name)!;
      return tag;
    });
  }
}
