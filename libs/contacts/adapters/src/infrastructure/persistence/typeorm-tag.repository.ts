import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { AccountId, isUuid, newId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, TransactionHost } from '@leadflow/shared-platform';
import { TagNameTakenError, TagRepository, TagState } from '@leadflow/contacts-core';
import { ContactMapper, TAG_COLUMNS, TagRow, tagRowToState, uniqueViolation } from './contact.mapper';
import { TagRecord } from './contacts.records';

/**
 * TypeORM implementation of {@link TagRepository} (`contacts.tags`); every statement filters on
 * `account_id`. A write invalidates the account's `config` caches (lead capture's settings) in every
 * process once the unit of work commits.
 */
@Injectable()
export class TypeOrmTagRepository extends TagRepository {
  constructor(
    private readonly transactions: TransactionHost,
    private readonly invalidation: AccountCacheInvalidation,
  ) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
  }

  /** After commit (at once outside a unit of work): every process forgets the account's cached settings. */
  private settingsChanged(accountId: AccountId): Promise<void> {
    return this.transactions.afterCommit(() => this.invalidation.invalidate('config', accountId));
  }

  async findTags(accountId: AccountId, tagIds: readonly string[]): Promise<TagState[]> {
    const ids = tagIds.filter(isUuid);
    if (ids.length === 0) return [];
    const rows = await this.manager.find(TagRecord, { where: { accountId, id: In(ids) } });
    return rows.map(ContactMapper.toTag);
  }
  async findTagBySystemKey(accountId: AccountId, systemKey: string): Promise<TagState | null> {
    const row = await this.manager.findOneBy(TagRecord, { accountId, systemKey });
    return row ? ContactMapper.toTag(row) : null;
  }
  async tagNameExists(accountId: AccountId, name: string): Promise<boolean> {
    return this.manager.existsBy(TagRecord, { accountId, name });
  }
  async insertTag(accountId: AccountId, tag: TagState): Promise<void> {
    try {
      await this.manager.insert(TagRecord, { ...tag, accountId });
    } catch (error) {
      if (uniqueViolation(error)) throw new TagNameTakenError(tag.name);
      throw error;
    }
    await this.settingsChanged(accountId);
  }
  async insertTagIfAbsent(accountId: AccountId, tag: TagState): Promise<boolean> {
    const rows: unknown[] = await this.manager.query(
      `INSERT INTO contacts.tags (id, account_id, name, color, description, category, system_key, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT DO NOTHING RETURNING id`,
      [tag.id, accountId, tag.name, tag.color, tag.description, tag.category, tag.systemKey, tag.createdAt, tag.updatedAt],
    );
    if (rows.length > 0) await this.settingsChanged(accountId);
    return rows.length > 0;
  }
  async ensureTags(accountId: AccountId, names: readonly string[], template: { color: string }, at: Date): Promise<TagState[]> {
    if (names.length === 0) return [];
    const wanted = [...names];
    // One statement creates the missing names, in name order (two transactions creating the same names lock
    // them in the same order: no deadlock), and reads back the ones that existed; a concurrent creation of a
    // name waits, then does nothing. The statement's snapshot cannot see a name committed concurrently
    // meanwhile: only then does a second statement read those (a new snapshot).
    const rows: (TagRow & { inserted: boolean })[] = await this.manager.query(
      `WITH inserted AS (
         INSERT INTO contacts.tags (id, account_id, name, color, description, category, system_key, created_at, updated_at)
         SELECT id, $1, name, $3, NULL, NULL, NULL, $4, $4 FROM unnest($2::text[], $5::uuid[]) AS t(name, id) ORDER BY name
         ON CONFLICT DO NOTHING
         RETURNING ${TAG_COLUMNS}
       )
       SELECT ${TAG_COLUMNS}, true AS inserted FROM inserted
       UNION ALL
       SELECT ${TAG_COLUMNS}, false AS inserted FROM contacts.tags WHERE account_id = $1 AND name = ANY($2::text[])`,
      [accountId, wanted, template.color, at, wanted.map(() => newId())],
    );
    const byName = new Map(rows.map((row) => [row.name, tagRowToState(row)]));
    const unseen = wanted.filter((name) => !byName.has(name));
    if (unseen.length > 0) {
      const late: TagRow[] = await this.manager.query(`SELECT ${TAG_COLUMNS} FROM contacts.tags WHERE account_id = $1 AND name = ANY($2::text[])`, [
        accountId,
        unseen,
      ]);
      for (const row of late) byName.set(row.name, tagRowToState(row));
    }
    if (rows.some((row) => row.inserted)) await this.settingsChanged(accountId);
    return wanted.map((name) => byName.get(name)).filter((tag): tag is TagState => tag !== undefined);
  }
}
