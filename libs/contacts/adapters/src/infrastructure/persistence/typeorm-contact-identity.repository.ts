import { Injectable } from '@nestjs/common';
import { AccountId, isUuid } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactIdentityRepository, Identity, IdentityKind, IdentityOwner, IdentityTakenError } from '@leadflow/contacts-core';
import { SqlParameters } from './contact.mapper';
import { MAX_MERGE_DEPTH } from './typeorm-contacts.repository';

/** Up to this many identities, {@link identityChainCte} looks them up as a VALUES list (one prepared statement per count). */
const FEW_IDENTITIES = 4;

/** A row of {@link SELECT_IDENTITY_OWNERS}. */
export interface IdentityOwnerRow {
  kind: IdentityKind;
  value: string;
  contact_id: string;
  survivor_id: string;
}

/** The owners of the identities of an {@link identityChainCte}: the survivor at the end of each merge chain. */
export const SELECT_IDENTITY_OWNERS = 'SELECT kind, value, contact_id, current_id AS survivor_id FROM chain WHERE merged_into_id IS NULL';

/** An {@link IdentityOwnerRow} → owner. */
export function toIdentityOwner(row: IdentityOwnerRow): IdentityOwner {
  return { kind: row.kind, value: row.value, contactId: row.contact_id, survivorId: row.survivor_id };
}

/**
 * The recursive CTE `chain` (the statement must start with `WITH RECURSIVE`): for each stored identity
 * (primary or secondary) equal to one of `identities`, its contact (depth 0) and the contacts it was
 * merged into, up to {@link MAX_MERGE_DEPTH}; columns `kind, value, contact_id, current_id,
 * merged_into_id, depth`. `account` is the statement's placeholder of the account id.
 *
 * A few identities (a capture's email and phone) are a VALUES list, whose row count the planner knows
 * in a generic plan as in a custom one, so the prepared statement keeps one plan; many (a batch) are
 * two arrays. Every step is a LATERAL lookup by a unique key (LIMIT 1 keeps it from being flattened):
 * index probes whatever the statistics, even when the plan was made while the tables looked tiny.
 */
export function identityChainCte(account: string, identities: readonly Identity[], params: SqlParameters): string {
  const distinct = [...new Map(identities.map((identity) => [`${identity.kind}\u0000${identity.value}`, identity])).values()];
  const wanted =
    distinct.length <= FEW_IDENTITIES
      ? `(VALUES ${distinct.map((identity) => `(${params.add(identity.kind, '::text')}, ${params.add(identity.value, '::text')})`).join(', ')})`
      : `(SELECT DISTINCT * FROM unnest(${params.add(distinct.map((identity) => identity.kind), '::text[]')}, ${params.add(distinct.map((identity) => identity.value), '::text[]')}))`;
  return `chain AS (
      SELECT wanted.kind, wanted.value, i.contact_id, c.id AS current_id, c.merged_into_id, 0 AS depth
        FROM ${wanted} AS wanted(kind, value)
       CROSS JOIN LATERAL (SELECT contact_id FROM contacts.contact_identities
                            WHERE account_id = ${account} AND kind = wanted.kind AND value = wanted.value LIMIT 1) i
       CROSS JOIN LATERAL (SELECT id, merged_into_id FROM contacts.contacts WHERE account_id = ${account} AND id = i.contact_id LIMIT 1) c
      UNION ALL
      SELECT chain.kind, chain.value, chain.contact_id, c.id, c.merged_into_id, chain.depth + 1
        FROM chain
       CROSS JOIN LATERAL (SELECT id, merged_into_id FROM contacts.contacts WHERE account_id = ${account} AND id = chain.merged_into_id LIMIT 1) c
       WHERE chain.depth < ${MAX_MERGE_DEPTH}
    )`;
}

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
    const params = new SqlParameters();
    const chain = identityChainCte(params.add(accountId, '::uuid'), identities, params);
    const rows: IdentityOwnerRow[] = await this.manager.query(`WITH RECURSIVE ${chain} ${SELECT_IDENTITY_OWNERS}`, params.values);
    return rows.map(toIdentityOwner);
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
