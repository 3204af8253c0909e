import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema `quotes`: owned by the quotes context (tables, indexes leading with account_id).
 * - `quote_sequences`: the account's numbering counter per year, incremented under its row lock in the
 *   creating transaction (concurrent creates queue on the row: no two quotes share a number).
 * - `quotes`: one quote; amounts in integer cents (bigint), line items as JSON (`quantity` exact decimal
 *   text, `unit_price_cents`), `public_token_hash` the SHA-256 of the public page token.
 * - `quote_payments`: payments recorded by the `pay` lead action.
 * Contacts and team members are referred to by id only (other schemas: no foreign keys).
 */
export class QuotesInit1795324197792 implements MigrationInterface {
  name = 'QuotesInit1795324197792';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS quotes`);
    await queryRunner.query(`
      CREATE TABLE quotes.quote_sequences (
        account_id uuid NOT NULL,
        year integer NOT NULL,
        last_value integer NOT NULL CHECK (last_value > 0),
        PRIMARY KEY (account_id, year)
      )`);
    await queryRunner.query(`
      CREATE TABLE quotes.quotes (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        quote_number text NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'sent', 'viewed', 'signed', 'paid', 'declined', 'cancelled', 'expired')),
        contact_id uuid NULL,
        prospect_name text NULL,
        prospect_email text NULL,
        prospect_phone text NULL,
        prospect_company text NULL,
        prospect_address text NULL,
        language text NOT NULL,
        valid_until date NULL,
        timezone text NOT NULL,
        payment_terms text NULL,
        line_items jsonb NOT NULL DEFAULT '[]'::jsonb,
        internal_notes text NOT NULL DEFAULT '',
        sales_rep_id uuid NULL,
        tax_profile_id text NULL,
        tax_profile text NOT NULL,
        signature_payment_order text NOT NULL,
        tax_exempt_reason text NULL,
        subtotal_cents bigint NOT NULL CHECK (subtotal_cents >= 0),
        tps_cents bigint NOT NULL CHECK (tps_cents >= 0),
        tvq_cents bigint NOT NULL CHECK (tvq_cents >= 0),
        total_cents bigint NOT NULL CHECK (total_cents >= 0),
        amount_paid_cents bigint NOT NULL DEFAULT 0 CHECK (amount_paid_cents >= 0),
        payments_count integer NOT NULL DEFAULT 0,
        payment_plan_type text NOT NULL,
        payment_deposit_type text NULL,
        payment_deposit_value bigint NULL,
        payment_installments_count integer NULL,
        payment_interval_days integer NULL,
        payment_execution_mode text NOT NULL,
        public_token_hash text NULL,
        sent_at timestamptz NULL,
        viewed_at timestamptz NULL,
        signed_at timestamptz NULL,
        declined_at timestamptz NULL,
        cancelled_at timestamptz NULL,
        expired_at timestamptz NULL,
        paid_at timestamptz NULL,
        archived_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX quotes_number_uq ON quotes.quotes (account_id, quote_number)`);
    await queryRunner.query(`CREATE INDEX quotes_list_idx ON quotes.quotes (account_id, created_at DESC, id DESC) WHERE archived_at IS NULL`);
    await queryRunner.query(`CREATE INDEX quotes_status_list_idx ON quotes.quotes (account_id, status, created_at DESC, id DESC) WHERE archived_at IS NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX quotes_token_uq ON quotes.quotes (account_id, public_token_hash) WHERE public_token_hash IS NOT NULL`);
    await queryRunner.query(`
      CREATE INDEX quotes_expiry_idx ON quotes.quotes (account_id, valid_until)
        WHERE status IN ('draft', 'sent', 'viewed') AND archived_at IS NULL AND valid_until IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE quotes.quote_payments (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        quote_id uuid NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        recorded_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX quote_payments_quote_idx ON quotes.quote_payments (account_id, quote_id, recorded_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS quotes CASCADE`);
  }
}
