import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 12, item 1: a `processing` Idempotency-Key holds a lease (`lease_expires_at`); once it has run
 * out without the request completing (the process crashed, PostgreSQL restarted), the next request with
 * the key takes it over instead of getting 409 for 24 hours. Rows written before this migration get
 * their lease from `created_at`.
 */
export class IdempotencyLease1796000000000 implements MigrationInterface {
  name = 'IdempotencyLease1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform.idempotency_keys ADD COLUMN lease_expires_at timestamptz NULL`);
    await queryRunner.query(`UPDATE platform.idempotency_keys SET lease_expires_at = created_at + interval '1 minute' WHERE state = 'processing'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform.idempotency_keys DROP COLUMN lease_expires_at`);
  }
}
