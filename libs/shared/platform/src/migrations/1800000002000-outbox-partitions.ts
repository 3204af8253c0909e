import { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexConcurrently } from '../database/lead-keys-with-account';
import { OUTBOX_PARTITION_SQL } from '../outbox/outbox-partition';

/**
 * The outbox by account partition (docs/adr/0008, `outbox-partition.ts`): the relay claims the unrelayed
 * rows of one partition at a time in sequence order (`outbox_partition_pending_idx`), and a walk of one
 * partition in sequence order has its index too (`outbox_partition_order_idx`). Expression indexes: no
 * column is added and no row rewritten; both are built concurrently (writes go on).
 */
export class OutboxPartitions1800000002000 implements MigrationInterface {
  name = 'OutboxPartitions1800000002000';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await buildIndexConcurrently(queryRunner, 'platform.outbox', 'outbox_partition_pending_idx', `(${OUTBOX_PARTITION_SQL}, sequence) WHERE relayed_at IS NULL`);
    await buildIndexConcurrently(queryRunner, 'platform.outbox', 'outbox_partition_order_idx', `(${OUTBOX_PARTITION_SQL}, sequence)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS platform.outbox_partition_pending_idx`);
    await queryRunner.query(`DROP INDEX IF EXISTS platform.outbox_partition_order_idx`);
  }
}
