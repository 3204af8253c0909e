import type { AccountId } from '@leadflow/shared-kernel';

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

/**
 * The account's tags (`contacts.tags`, names unique per account). Writes invalidate lead capture's
 * cached settings once committed. Filters on the account; joins the caller's unit of work.
 */
export abstract class TagRepository {
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
}
