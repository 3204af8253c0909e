import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { AccountId, isUuid, Page } from '@leadflow/shared-kernel';
import { applyKeyset, toPage, TransactionHost } from '@leadflow/shared-platform';
import type { ContactView, CustomFieldDefinitionView, TagView } from '@leadflow/contacts-contracts';
import { ContactListFilter, ContactsReadModel, NamePage, toContactView, toDefinitionView, toTagView } from '@leadflow/contacts-core';
import { ContactMapper } from './contact.mapper';
import { ContactRecord, CustomFieldDefinitionRecord, TagRecord } from './contacts.records';
import { encodeNameCursor } from './name-cursor';

/** Up to this many matching contacts the list's `total_count` is exact; beyond, the planner's estimate. */
export const EXACT_COUNT_CAP = 10_000;

/** A search word as a literal ILIKE pattern (`%`, `_` and `\` escaped). */
function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * TypeORM read side of the contacts context. Reads go through the current unit of work (a handler
 * reading back inside its transaction sees its own writes). Merged contacts are never returned.
 */
@Injectable()
export class TypeOrmContactsReadModel extends ContactsReadModel {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
  }

  async listContacts(accountId: AccountId, filter: ContactListFilter): Promise<Page<ContactView>> {
    const query = this.manager
      .createQueryBuilder(ContactRecord, 'c')
      .where('c.account_id = :accountId', { accountId })
      .andWhere('c.merged_into_id IS NULL');
    if (filter.tagId) {
      query.andWhere(
        `EXISTS (SELECT 1 FROM contacts.contact_tags ct WHERE ct.account_id = c.account_id AND ct.contact_id = c.id AND ct.tag_id = :tagId)`,
        { tagId: filter.tagId },
      );
    }
    filter.words.forEach((word, index) => {
      const name = `word${index}`;
      query.andWhere(`(c.email ILIKE :${name} OR c.first_name ILIKE :${name} OR c.last_name ILIKE :${name} OR c.company ILIKE :${name})`, {
        [name]: containsPattern(word),
      });
    });
    const total = await this.estimateCount(query);
    const rows = await applyKeyset(query, 'c', filter.page).getMany();
    const page = toPage(rows, filter.page, total, ContactMapper.toState);
    const tags = filter.expandTags ? await this.tagsByContact(accountId, page.data.map((contact) => contact.id)) : null;
    return {
      data: page.data.map((state) => toContactView(state, tags ? tags.get(state.id) ?? [] : undefined)),
      pagination: page.pagination,
    };
  }

  /**
   * `total_count` of the contacts list, which the contract calls an estimate (public-api-v1 › Envelopes):
   * exact up to {@link EXACT_COUNT_CAP} matching contacts (a count over at most that many index entries),
   * beyond it PostgreSQL's planner estimate (`EXPLAIN`), never below the cap. A large account's list
   * thus never pays a full count on every page.
   */
  private async estimateCount(query: SelectQueryBuilder<ContactRecord>): Promise<number> {
    const [sql, parameters] = query.clone().select('1').limit(EXACT_COUNT_CAP + 1).getQueryAndParameters();
    const [{ count }] = (await this.manager.query(`SELECT count(*)::int AS count FROM (${sql}) capped`, parameters)) as { count: number }[];
    if (count <= EXACT_COUNT_CAP) return count;
    const [unlimitedSql, unlimitedParameters] = query.clone().select('1').getQueryAndParameters();
    const [plan] = (await this.manager.query(`EXPLAIN (FORMAT JSON) ${unlimitedSql}`, unlimitedParameters)) as { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[];
    return Math.max(EXACT_COUNT_CAP + 1, Math.round(plan['QUERY PLAN'][0].Plan['Plan Rows']));
  }

  async getContact(accountId: AccountId, contactId: string, options: { expandTags?: boolean } = {}): Promise<ContactView | null> {
    if (!isUuid(contactId)) return null;
    const row = await this.manager
      .createQueryBuilder(ContactRecord, 'c')
      .where('c.account_id = :accountId AND c.id = :contactId AND c.merged_into_id IS NULL', { accountId, contactId })
      .getOne();
    if (!row) return null;
    return toContactView(ContactMapper.toState(row), options.expandTags ? await this.tagsOfContact(accountId, row.id) : undefined);
  }

  async tagsOfContact(accountId: AccountId, contactId: string): Promise<TagView[]> {
    return (await this.tagsByContact(accountId, [contactId])).get(contactId) ?? [];
  }

  async listTags(accountId: AccountId, page: NamePage): Promise<Page<TagView>> {
    const query = this.manager.createQueryBuilder(TagRecord, 't').where('t.account_id = :accountId', { accountId });
    const total = await query.clone().getCount();
    if (page.after) query.andWhere('(t.name, t.id) > (:afterName, :afterId)', { afterName: page.after.name, afterId: page.after.id });
    const rows = await query.orderBy('t.name', 'ASC').addOrderBy('t.id', 'ASC').limit(page.limit + 1).getMany();
    const hasMore = rows.length > page.limit;
    const visible = hasMore ? rows.slice(0, page.limit) : rows;
    const last = visible[visible.length - 1];
    return {
      data: visible.map((row) => toTagView(ContactMapper.toTag(row))),
      pagination: {
        next_cursor: hasMore && last ? encodeNameCursor({ name: last.name, id: last.id }) : null,
        has_more: hasMore,
        limit: page.limit,
        total_count: total,
      },
    };
  }

  async listDefinitions(accountId: AccountId): Promise<CustomFieldDefinitionView[]> {
    const rows = await this.manager.find(CustomFieldDefinitionRecord, { where: { accountId }, order: { position: 'ASC', id: 'ASC' } });
    return rows.map((row) => toDefinitionView(ContactMapper.toDefinition(row)));
  }

  /** Tags of each contact, sorted by name then id. */
  private async tagsByContact(accountId: AccountId, contactIds: string[]): Promise<Map<string, TagView[]>> {
    const byContact = new Map<string, TagView[]>();
    if (contactIds.length === 0) return byContact;
    const rows: (Record<string, unknown> & { contact_id: string })[] = await this.manager.query(
      `SELECT ct.contact_id, t.id, t.name, t.color, t.description, t.category, t.system_key, t.created_at, t.updated_at
         FROM contacts.contact_tags ct
         JOIN contacts.tags t ON t.account_id = ct.account_id AND t.id = ct.tag_id
        WHERE ct.account_id = $1 AND ct.contact_id = ANY($2::uuid[])
        ORDER BY t.name ASC, t.id ASC`,
      [accountId, contactIds],
    );
    for (const row of rows) {
      const tag = toTagView({
        id: row.id as string,
        name: row.name as string,
        color: row.color as string,
        description: (row.description as string | null) ?? null,
        category: (row.category as string | null) ?? null,
        systemKey: (row.system_key as string | null) ?? null,
        createdAt: row.created_at as Date,
        updatedAt: row.updated_at as Date,
      });
      byContact.set(row.contact_id, [...(byContact.get(row.contact_id) ?? []), tag]);
    }
    return byContact;
  }
}
