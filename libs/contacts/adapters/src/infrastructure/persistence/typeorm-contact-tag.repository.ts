import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactTagRepository } from '@leadflow/contacts-core';

/** TypeORM implementation of {@link ContactTagRepository} (`contacts.contact_tags`); every statement filters on `account_id`. */
@Injectable()
export class TypeOrmContactTagRepository extends ContactTagRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
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
  async copyTags(accountId: AccountId, fromContactId: string, toContactId: string, at: Date): Promise<string[]> {
    const rows: { tag_id: string }[] = await this.manager.query(
      `INSERT INTO contacts.contact_tags (account_id, contact_id, tag_id, created_at)
       SELECT account_id, $3, tag_id, $4 FROM contacts.contact_tags WHERE account_id = $1 AND contact_id = $2 ORDER BY tag_id
       ON CONFLICT DO NOTHING RETURNING tag_id`,
      [accountId, fromContactId, toContactId, at],
    );
    return rows.map((row) => row.tag_id).sort();
  }
}
