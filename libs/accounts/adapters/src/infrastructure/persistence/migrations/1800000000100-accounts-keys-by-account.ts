import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `accounts` distributable by account (docs/adr/0008): primary keys `(account_id, …)`, and the
 * global `UNIQUE (prefix)` of `api_keys` moves to the reference table `accounts.api_key_prefixes`
 * (prefix → account and key: authentication reads it before the account is known), filled from the keys.
 * No row of `api_keys` is rewritten: the new indexes are built concurrently and swapped in one short
 * transaction (`leadKeysWithAccount`).
 */
export class AccountsKeysByAccount1800000000100 implements MigrationInterface {
  name = 'AccountsKeysByAccount1800000000100';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.startTransaction();
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS accounts.api_key_prefixes (
        prefix text PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts.accounts (id) ON DELETE CASCADE,
        key_id uuid NOT NULL
      )`);
    await queryRunner.query(
      `COMMENT ON TABLE accounts.api_key_prefixes IS 'reference table: an API key''s prefix -> its account and key, read by authentication before the account is known; written in the transaction of the key'`,
    );
    await queryRunner.query(
      `INSERT INTO accounts.api_key_prefixes (prefix, account_id, key_id) SELECT prefix, account_id, id FROM accounts.api_keys ON CONFLICT (prefix) DO NOTHING`,
    );
    await queryRunner.commitTransaction();
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('AccountsKeysByAccount1800000000100 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'accounts.api_keys', columns: ['account_id', 'id'] },
    { table: 'accounts.systems', columns: ['account_id', 'id'] },
    { table: 'accounts.team_members', columns: ['account_id', 'id'] },
  ],
  dropUniques: [{ table: 'accounts.api_keys', name: 'api_keys_prefix_key' }],
};
