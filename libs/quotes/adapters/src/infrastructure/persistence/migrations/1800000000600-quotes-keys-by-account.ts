import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `quotes` distributable by account (docs/adr/0008): primary keys `(account_id, …)`.
 * No row is rewritten: the new indexes are built concurrently and swapped in one short transaction
 * (`leadKeysWithAccount`).
 */
export class QuotesKeysByAccount1800000000600 implements MigrationInterface {
  name = 'QuotesKeysByAccount1800000000600';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('QuotesKeysByAccount1800000000600 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'quotes.quotes', columns: ['account_id', 'id'] },
    { table: 'quotes.quote_payments', columns: ['account_id', 'id'] },
  ],
};
