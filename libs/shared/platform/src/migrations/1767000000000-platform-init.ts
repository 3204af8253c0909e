import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema `platform`: transactional outbox, activity log, idempotency keys. */
export class PlatformInit1767000000000 implements MigrationInterface {
  name = 'PlatformInit1767000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS platform`);
    await queryRunner.query(`
      CREATE TABLE platform.outbox (
        id uuid PRIMARY KEY,
        sequence bigserial NOT NULL,
        account_id uuid NOT NULL,
        type text NOT NULL,
        payload jsonb NOT NULL,
        actor jsonb NOT NULL,
        occurred_at timestamptz NOT NULL,
        relayed_at timestamptz NULL,
        relay_attempts int NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(`CREATE INDEX outbox_pending_idx ON platform.outbox (sequence) WHERE relayed_at IS NULL`);
    await queryRunner.query(`CREATE INDEX outbox_account_type_idx ON platform.outbox (account_id, type, occurred_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE platform.activity_log (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        contact_id uuid NULL,
        type text NOT NULL,
        actor jsonb NOT NULL,
        data jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX activity_log_account_created_idx ON platform.activity_log (account_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX activity_log_contact_idx ON platform.activity_log (account_id, contact_id, created_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE platform.idempotency_keys (
        account_id uuid NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('processing', 'completed')),
        response_status int NULL,
        response_body jsonb NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_expires_idx ON platform.idempotency_keys (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA platform CASCADE`);
  }
}
