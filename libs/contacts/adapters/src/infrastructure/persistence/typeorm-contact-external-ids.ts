import { Injectable } from '@nestjs/common';
import { AccountId } from '@leadflow/shared-kernel';
import { TransactionHost } from '@leadflow/shared-platform';
import { ContactExternalIds } from '@leadflow/contacts-core';

/** {@link ContactExternalIds} on `contacts.contact_external_ids` (primary key lookups), in the current unit of work. */
@Injectable()
export class TypeOrmContactExternalIds extends ContactExternalIds {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async findContactId(accountId: AccountId, source: string, externalId: string): Promise<string | null> {
    const rows: { contact_id: string }[] = await this.transactions.manager.query(
      `SELECT contact_id FROM contacts.contact_external_ids WHERE account_id = $1 AND external_source = $2 AND external_id = $3`,
      [accountId, source, externalId],
    );
    return rows[0]?.contact_id ?? null;
  }

  async link(accountId: AccountId, source: string, externalId: string, contactId: string, at: Date): Promise<boolean> {
    // A link left by a deleted contact is taken over; a link to an existing contact is never moved.
    const rows: unknown[] = await this.transactions.manager.query(
      `INSERT INTO contacts.contact_external_ids (account_id, external_source, external_id, contact_id, created_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id, external_source, external_id) DO UPDATE SET contact_id = EXCLUDED.contact_id, created_at = EXCLUDED.created_at
         WHERE NOT EXISTS (SELECT 1 FROM contacts.contacts c WHERE c.account_id = $1 AND c.id = contact_external_ids.contact_id)
       RETURNING contact_id`,
      [accountId, source, externalId, contactId, at],
    );
    return rows.length > 0;
  }
}
