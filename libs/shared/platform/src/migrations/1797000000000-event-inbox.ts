import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 12, item 2: an outbox event counts as delivered only once each consumer has recorded it.
 *
 * - `platform.event_inbox`: one row per (event, consumer) the consumer has handled (`outcome`
 *   `handled`) or refused for good (`rejected:<code>`), written after the handler ran, in one
 *   multi-row insert per batch.
 * - `platform.outbox_reconciliation`: the reconciler's watermark (one row): every outbox row up to
 *   `sequence` has been recorded by all its consumers (or given up on).
 * - `platform.outbox.reconcile_attempts` and `reconciled_at`: how often and when the reconciler last
 *   re-enqueued the row.
 */
export class EventInbox1797000000000 implements MigrationInterface {
  name = 'EventInbox1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform.event_inbox (
        event_id uuid NOT NULL,
        consumer text NOT NULL,
        account_id uuid NOT NULL,
        outcome text NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (event_id, consumer)
      )`);
    await queryRunner.query(`CREATE INDEX event_inbox_recorded_idx ON platform.event_inbox (recorded_at)`);
    await queryRunner.query(`CREATE TABLE platform.outbox_reconciliation (id smallint PRIMARY KEY CHECK (id = 1), sequence bigint NOT NULL)`);
    await queryRunner.query(
      `INSERT INTO platform.outbox_reconciliation (id, sequence) SELECT 1, coalesce(max(sequence), 0) FROM platform.outbox`,
    );
    await queryRunner.query(
      `ALTER TABLE platform.outbox ADD COLUMN reconcile_attempts int NOT NULL DEFAULT 0, ADD COLUMN reconciled_at timestamptz NULL`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX outbox_sequence_idx ON platform.outbox (sequence)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX platform.outbox_sequence_idx`);
    await queryRunner.query(`ALTER TABLE platform.outbox DROP COLUMN reconcile_attempts, DROP COLUMN reconciled_at`);
    await queryRunner.query(`DROP TABLE platform.outbox_reconciliation`);
    await queryRunner.query(`DROP TABLE platform.event_inbox`);
  }
}
