import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test mode (issue 15, item 4): an account is `live` or `test`; a test account is the sandbox of one
 * live account (`sandbox_of`, at most one sandbox per live account). Each key carries its account's
 * mode (`lf_live_` / `lf_test_`); an account's mode never changes.
 */
export class AccountsSandbox1799000000000 implements MigrationInterface {
  name = 'AccountsSandbox1799000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE accounts.accounts
        ADD COLUMN mode text NOT NULL DEFAULT 'live' CONSTRAINT accounts_mode_ck CHECK (mode IN ('live', 'test')),
        ADD COLUMN sandbox_of uuid NULL CONSTRAINT accounts_sandbox_of_fk REFERENCES accounts.accounts (id),
        ADD CONSTRAINT accounts_sandbox_mode_ck CHECK ((mode = 'test') = (sandbox_of IS NOT NULL))`);
    await queryRunner.query(`CREATE UNIQUE INDEX accounts_sandbox_of_uq ON accounts.accounts (sandbox_of) WHERE sandbox_of IS NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE accounts.api_keys ADD COLUMN mode text NOT NULL DEFAULT 'live' CONSTRAINT api_keys_mode_ck CHECK (mode IN ('live', 'test'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE accounts.api_keys DROP COLUMN mode`);
    await queryRunner.query(`DROP INDEX accounts.accounts_sandbox_of_uq`);
    await queryRunner.query(`ALTER TABLE accounts.accounts DROP CONSTRAINT accounts_sandbox_mode_ck, DROP COLUMN sandbox_of, DROP COLUMN mode`);
  }
}
