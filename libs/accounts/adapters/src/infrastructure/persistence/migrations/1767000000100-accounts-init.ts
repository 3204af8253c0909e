import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema `accounts`: accounts, Systems, team members, API keys. */
export class AccountsInit1767000000100 implements MigrationInterface {
  name = 'AccountsInit1767000000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS accounts`);
    await queryRunner.query(`
      CREATE TABLE accounts.accounts (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        timezone text NOT NULL,
        features text[] NOT NULL,
        api_terms_accepted boolean NOT NULL DEFAULT false,
        quote_defaults jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE accounts.systems (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts.accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        is_main boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX systems_account_idx ON accounts.systems (account_id)`);
    await queryRunner.query(`CREATE UNIQUE INDEX systems_one_main_idx ON accounts.systems (account_id) WHERE is_main`);
    await queryRunner.query(`
      CREATE TABLE accounts.team_members (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts.accounts(id) ON DELETE CASCADE,
        email text NOT NULL,
        first_name text NULL,
        last_name text NULL,
        is_active boolean NOT NULL DEFAULT true,
        is_sales_rep boolean NOT NULL DEFAULT false,
        can_delete_prospects boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        UNIQUE (account_id, email)
      )`);
    await queryRunner.query(`
      CREATE TABLE accounts.api_keys (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts.accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        prefix text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        scopes text[] NOT NULL,
        per_hour int NOT NULL,
        events_per_minute int NOT NULL DEFAULT 60,
        expires_at timestamptz NULL,
        revoked_at timestamptz NULL,
        last_used_at timestamptz NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX api_keys_account_idx ON accounts.api_keys (account_id, created_at DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA accounts CASCADE`);
  }
}
