import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactsRepository, ContactState, IdentityKind, IdentityTakenError } from '@leadflow/contacts-core';
import { ContactMapper, ContactSql, SqlParameters, uniqueViolation } from './contact.mapper';
import { ContactRecord } from './contacts.records';

/** Longest merge chain followed (chains are acyclic by construction; this only bounds a corrupted one). */
export const MAX_MERGE_DEPTH = 50;

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
 * TypeORM implementation of {@link ContactsRepository} (`contacts.contacts`, with the primary identities
 * of a new contact); every statement filters on `account_id`.
 */
@Injectable()
export class TypeOrmContactsRepository extends ContactsRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
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
}
