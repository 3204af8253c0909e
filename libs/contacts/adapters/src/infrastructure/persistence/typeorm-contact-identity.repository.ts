import { Injectable } from '@nestjs/common';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactIdentityRepository, Identity, IdentityKind, IdentityOwner, IdentityTakenError } from '@leadflow/contacts-core';
import { MAX_MERGE_DEPTH } from './typeorm-contacts.repository';

/** TypeORM implementation of {@link ContactIdentityRepository} (`contacts.contact_identities`); every statement filters on `account_id`. */
@Injectable()
export class TypeOrmContactIdentityRepository extends ContactIdentityRepository {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  private get manager() {
    return this.transactions.manager;
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
}
