import { Injectable } from '@nestjs/common';
import { ContactsConfiguration, CustomFieldType } from '@leadflow/contacts-contracts';
import { ContactsSandboxData, ProvisionedTag } from '@leadflow/contacts-core';
import { AccountId } from '@leadflow/shared-kernel';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

/** Children first; `contacts` last. Tags and custom field definitions stay. */
const CONTACT_DATA_TABLES = [
  'contacts.contact_identities',
  'contacts.contact_tags',
  'contacts.contact_notes',
  'contacts.contact_external_ids',
  'contacts.lead_captures',
  'contacts.sms_handoffs',
  'contacts.presuasion_submissions',
  'contacts.email_unsubscribes',
  'contacts.contacts',
] as const;

/**
 * {@link ContactsSandboxData} on PostgreSQL (test mode, issue 15 item 4): copying rows that were valid
 * when written, deleting an account's rows; reads and writes only the `contacts` schema, inside the
 * caller's transaction.
 */
@Injectable()
export class PostgresContactsSandboxData extends ContactsSandboxData {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  async exportConfiguration(accountId: AccountId): Promise<ContactsConfiguration> {
    const manager = this.transactions.manager;
    const fields: { name: string; type: CustomFieldType; options: string[] | null }[] = await manager.query(
      `SELECT name, type, options FROM contacts.custom_field_definitions WHERE account_id = $1 ORDER BY position, created_at, id`,
      [accountId],
    );
    const tags: { name: string; color: string; description: string | null; category: string | null; system_key: string | null }[] = await manager.query(
      `SELECT name, color, description, category, system_key FROM contacts.tags WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return {
      customFields: fields.map((field) => ({ name: field.name, type: field.type, options: field.options ?? null })),
      tags: tags.map((tag) => ({ name: tag.name, color: tag.color, description: tag.description, category: tag.category, systemKey: tag.system_key })),
    };
  }

  async insertTags(accountId: AccountId, tags: readonly ProvisionedTag[], now: Date): Promise<void> {
    for (const tag of tags) {
      await this.transactions.manager.query(
        `INSERT INTO contacts.tags (id, account_id, name, color, description, category, system_key, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [tag.id, accountId, tag.name, tag.color, tag.description, tag.category, tag.systemKey, now],
      );
    }
  }

  deleteAccountData(accountId: AccountId): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, CONTACT_DATA_TABLES);
  }
}
