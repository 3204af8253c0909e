import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AccountId, isUuid, newId } from '@leadflow/shared-kernel';
import { AccountCacheInvalidation, TransactionHost } from '@leadflow/shared-platform';
import {
  ContactsRepository,
  ContactState,
  CustomFieldDefinition,
  Identity,
  IdentityKind,
  IdentityOwner,
  IdentityTakenError,
  NoteState,
  TagNameTakenError,
  TagState,
} from '@leadflow/contacts-core';
import { ContactMapper, ContactSql, SqlParameters, TAG_COLUMNS, TagRow, tagRowToState, uniqueViolation } from './contact.mapper';
import { ContactNoteRecord, ContactRecord, CustomFieldDefinitionRecord, TagRecord } from './contacts.records';

/** Longest merge chain followed (chains are acyclic by construction; this only bounds a corrupted one). */
const MAX_MERGE_DEPTH = 50;

function kindOfViolation(detail: string | undefined): IdentityKind {
  return detail && /\bphone\b/.test(detail) ? 'phone' : 'email';
}

/**
 * `IdentityTakenError` for a unique violation of `contacts.contact_identities` (another contact holds
 * the email or phone), else the error itself.
 */
export function identityViolation(error: unknown): unknown {
  const violation = uniqueViolation(error);
  return violation && (violation.constraint ?? '').startsWith('contact_identities') ? new IdentityTakenError(kindOfViolation(violation.detail)) : error;
}

/**
 * TypeORM implementation of {@link ContactsRepository}; every statement filters on `account_id`.
 * Writes of custom-field definitions and tags (what lead capture reads through its per-account cache)
 * invalidate the account's `config` caches in every process once the unit of work commits.
 */
@Injectable()
export class TypeOrmContactsRepository extends ContactsRepository {
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

  async findContact(accountId: AccountId, contactId: string, options: { lock?: boolean } = {}): Promise<ContactState | null> {
    if (!isUuid(contactId)) return null;
    const lock = options.lock && this.transactions.inTransaction ? 'FOR UPDATE' : '';
    const rows: Record<string, unknown>[] = await this.manager.query(
      `SELECT ${ContactSql.selectColumns('c')} FROM contacts.contacts c WHERE c.account_id = $1 AND c.id = $2 ${lock}`,
      [accountId, contactId],
    );
    return rows[0] ? ContactSql.toState(rows[0]) : null;
  }

  /** One statement: the contact row and its primary identities. */
  async insertContact(contact: ContactState): Promise<void> {
    const params = new SqlParameters();
    const ctes = ContactSql.insertCtes(contact, params);
    try {
      await this.manager.query(`WITH ${ctes} SELECT 1`, params.values);
    } catch (error) {
      throw identityViolation(error);
    }
  }

  /** Every column but the id, account, creation time and the lead score (the worker's `lead-score` consumer owns it). */
  async updateContact(contact: ContactState): Promise<void> {
    const { id, accountId, createdAt: _createdAt, score: _score, scoreReviewAt: _scoreReviewAt, ...columns } = ContactMapper.toRecord(contact);
    await this.manager.update(ContactRecord, { accountId, id }, columns as QueryDeepPartialEntity<ContactRecord>);
  }

  async setPrimaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string | null, at: Date): Promise<void> {
    await this.manager.query(
      `DELETE FROM contacts.contact_identities
        WHERE account_id = $1 AND contact_id = $2 AND kind = $3 AND is_primary AND ($4::text IS NULL OR value <> $4::text)`,
      [accountId, contactId, kind, value],
    );
    if (value === null) return;
    const rows: unknown[] = await this.manager.query(
      `INSERT INTO contacts.contact_identities (account_id, contact_id, kind, value, is_primary, created_at)
       VALUES ($1, $2, $3, $4, true, $5)
       ON CONFLICT (account_id, kind, value) DO UPDATE SET is_primary = true
         WHERE contacts.contact_identities.contact_id = EXCLUDED.contact_id
       RETURNING contact_id`,
      [accountId, contactId, kind, value, at],
    );
    if (rows.length === 0) throw new IdentityTakenError(kind);
  }

  async addSecondaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string, at: Date): Promise<boolean> {
    const rows: unknown[] = await this.manager.query(
      `INSERT INTO contacts.contact_identities (account_id, contact_id, kind, value, is_primary, created_at)
       VALUES ($1, $2, $3, $4, false, $5)
       ON CONFLICT (account_id, kind, value) DO NOTHING
       RETURNING contact_id`,
      [accountId, contactId, kind, value, at],
    );
    return rows.length > 0;
  }

  async findIdentityOwners(accountId: AccountId, identities: readonly Identity[]): Promise<IdentityOwner[]> {
    if (identities.length === 0) return [];
    const rows: { kind: IdentityKind; value: string; contact_id: string; survivor_id: string }[] = await this.manager.query(
      `WITH RECURSIVE chain AS (
         SELECT i.kind, i.value, i.contact_id, c.id AS current_id, c.merged_into_id, 0 AS depth
           FROM contacts.contact_identities i
           JOIN contacts.contacts c ON c.account_id = i.account_id AND c.id = i.contact_id
          WHERE i.account_id = $1 AND (i.kind, i.value) IN (SELECT * FROM unnest($2::text[], $3::text[]))
         UNION ALL
         SELECT chain.kind, chain.value, chain.contact_id, c.id, c.merged_into_id, chain.depth + 1
           FROM chain JOIN contacts.contacts c ON c.account_id = $1 AND c.id = chain.merged_into_id
          WHERE chain.depth < ${MAX_MERGE_DEPTH}
       )
       SELECT kind, value, contact_id, current_id AS survivor_id FROM chain WHERE merged_into_id IS NULL`,
      [accountId, identities.map((identity) => identity.kind), identities.map((identity) => identity.value)],
    );
    return rows.map((row) => ({ kind: row.kind, value: row.value, contactId: row.contact_id, survivorId: row.survivor_id }));
  }

  async identitiesOf(accountId: AccountId, contactId: string): Promise<{ kind: IdentityKind; value: string; isPrimary: boolean }[]> {
    if (!isUuid(contactId)) return [];
    const rows: { kind: IdentityKind; value: string; is_primary: boolean }[] = await this.manager.query(
      `SELECT kind, value, is_primary FROM contacts.contact_identities WHERE account_id = $1 AND contact_id = $2 ORDER BY kind, value`,
      [accountId, contactId],
    );
    return rows.map((row) => ({ kind: row.kind, value: row.value, isPrimary: row.is_primary }));
  }

  async moveIdentities(accountId: AccountId, fromContactId: string, toContactId: string, primaries: readonly Identity[]): Promise<void> {
    await this.manager.query(
      `UPDATE contacts.contact_identities
          SET contact_id = $3,
              is_primary = (kind, value) IN (SELECT * FROM unnest($4::text[], $5::text[]))
        WHERE account_id = $1 AND contact_id = $2`,
      [accountId, fromContactId, toContactId, primaries.map((identity) => identity.kind), primaries.map((identity) => identity.value)],
    );
  }

  async copyTags(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<string[]> {
    const rows: { tag_id: string }[] = await this.manager.query(
      `INSERT INTO contacts.contact_tags (account_id, contact_id, tag_id, created_at)
       SELECT account_id, $3, tag_id, $4 FROM contacts.contact_tags WHERE account_id = $1 AND contact_id = $2 ORDER BY tag_id
       ON CONFLICT DO NOTHING RETURNING tag_id`,
      [accountId, fromContactId, toContactId, at],
    );
    return rows.map((row) => row.tag_id).sort();
  }

  async absorbedInto(accountId: AccountId, contactId: string): Promise<string[]> {
    const rows: { id: string }[] = await this.manager.query(
      `WITH RECURSIVE absorbed AS (
         SELECT id, 1 AS depth FROM contacts.contacts WHERE account_id = $1 AND merged_into_id = $2
         UNION ALL
         SELECT c.id, absorbed.depth + 1
           FROM contacts.contacts c JOIN absorbed ON c.account_id = $1 AND c.merged_into_id = absorbed.id
          WHERE absorbed.depth < ${MAX_MERGE_DEPTH}
       )
       SELECT DISTINCT id FROM absorbed`,
      [accountId, contactId],
    );
    return rows.map((row) => row.id);
  }

  async deleteContacts(accountId: AccountId, contactIds: readonly string[]): Promise<void> {
    if (contactIds.length === 0) return;
    const ids = [...contactIds];
    for (const table of ['contact_identities', 'contact_tags', 'contact_notes', 'lead_captures', 'sms_handoffs', 'contact_external_ids', 'presuasion_submissions']) {
      await this.manager.query(`DELETE FROM contacts.${table} WHERE account_id = $1 AND contact_id = ANY($2::uuid[])`, [accountId, ids]);
    }
    await this.manager.query(`DELETE FROM contacts.contacts WHERE account_id = $1 AND id = ANY($2::uuid[])`, [accountId, ids]);
  }

  async listDefinitions(accountId: AccountId): Promise<CustomFieldDefinition[]> {
    const rows = await this.manager.find(CustomFieldDefinitionRecord, { where: { accountId }, order: { position: 'ASC', id: 'ASC' } });
    return rows.map(ContactMapper.toDefinition);
  }

  async insertDefinitions(accountId: AccountId, definitions: readonly CustomFieldDefinition[], at: Date): Promise<void> {
    if (definitions.length === 0) return;
    const [{ next }]: { next: number }[] = await this.manager.query(
      `SELECT COALESCE(MAX(position), -1) + 1 AS next FROM contacts.custom_field_definitions WHERE account_id = $1`,
      [accountId],
    );
    await this.manager.insert(
      CustomFieldDefinitionRecord,
      definitions.map((definition, index) => ({
        id: definition.id,
        accountId,
        name: definition.name,
        type: definition.type,
        options: definition.options,
        position: Number(next) + index,
        createdAt: at,
      })),
    );
    await this.settingsChanged(accountId);
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

  async contactTagIds(accountId: AccountId, contactId: string): Promise<string[]> {
    const rows: { tag_id: string }[] = await this.manager.query(
      `SELECT tag_id FROM contacts.contact_tags WHERE account_id = $1 AND contact_id = $2`,
      [accountId, contactId],
    );
    return rows.map((row) => row.tag_id);
  }

  async attachTags(accountId: AccountId, contactId: string, tagIds: readonly string[], at: Date): Promise<string[]> {
    if (tagIds.length === 0) return [];
    const rows: { tag_id: string }[] = await this.manager.query(
      `INSERT INTO contacts.contact_tags (account_id, contact_id, tag_id, created_at)
       SELECT $1, $2, tag_id, $3 FROM unnest($4::uuid[]) AS t(tag_id)
       ON CONFLICT DO NOTHING RETURNING tag_id`,
      [accountId, contactId, at, [...tagIds]],
    );
    return rows.map((row) => row.tag_id);
  }

  async detachTag(accountId: AccountId, contactId: string, tagId: string): Promise<boolean> {
    // TypeORM answers a DELETE with [rows, affected count].
    const [, affected]: [unknown[], number] = await this.manager.query(
      `DELETE FROM contacts.contact_tags WHERE account_id = $1 AND contact_id = $2 AND tag_id = $3`,
      [accountId, contactId, tagId],
    );
    return affected > 0;
  }

  async insertNote(accountId: AccountId, note: NoteState): Promise<void> {
    await this.manager.insert(ContactNoteRecord, { ...note, accountId });
  }
}
