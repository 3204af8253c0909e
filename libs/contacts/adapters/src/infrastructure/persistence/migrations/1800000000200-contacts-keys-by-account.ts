import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `contacts` distributable by account (docs/adr/0008): primary keys `(account_id, …)`.
 * No row is rewritten: the new indexes are built concurrently and swapped in one short transaction
 * (`leadKeysWithAccount`).
 */
export class ContactsKeysByAccount1800000000200 implements MigrationInterface {
  name = 'ContactsKeysByAccount1800000000200';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('ContactsKeysByAccount1800000000200 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'contacts.contacts', columns: ['account_id', 'id'] },
    { table: 'contacts.contact_notes', columns: ['account_id', 'id'] },
    { table: 'contacts.custom_field_definitions', columns: ['account_id', 'id'] },
    { table: 'contacts.lead_captures', columns: ['account_id', 'id'] },
    { table: 'contacts.sms_handoffs', columns: ['account_id', 'id'] },
    { table: 'contacts.tags', columns: ['account_id', 'id'] },
  ],
};
