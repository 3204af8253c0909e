import { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexConcurrently, leadKeysWithAccount } from '../database/lead-keys-with-account';

/**
 * Schema `platform` distributable by account (docs/adr/0008).
 *
 * - `outbox` and `activity_log`: primary key `(account_id, id)`; the outbox's global `UNIQUE (sequence)`
 *   becomes a plain index (the reading order, not a key).
 * - `event_inbox`: primary key `(account_id, event_id, consumer)`; a plain `(event_id, consumer)` index
 *   serves the lookups of batch jobs written before this version, whose event references carry no account.
 * - `workers` and `outbox_reconciliation` have no `account_id`: they are named reference tables (comment).
 *
 * No row is rewritten: indexes are built concurrently and swapped in one short transaction.
 */
export class PlatformKeysByAccount1800000000000 implements MigrationInterface {
  name = 'PlatformKeysByAccount1800000000000';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await buildIndexConcurrently(queryRunner, 'platform.outbox', 'outbox_order_idx', '(sequence)');
    await buildIndexConcurrently(queryRunner, 'platform.outbox', 'outbox_id_idx', '(id)');
    await buildIndexConcurrently(queryRunner, 'platform.event_inbox', 'event_inbox_event_idx', '(event_id, consumer)');
    await leadKeysWithAccount(queryRunner, {
      primaryKeys: [
        { table: 'platform.outbox', columns: ['account_id', 'id'] },
        { table: 'platform.activity_log', columns: ['account_id', 'id'] },
        { table: 'platform.event_inbox', columns: ['account_id', 'event_id', 'consumer'] },
      ],
      dropUniques: [{ table: 'platform.outbox', name: 'outbox_sequence_idx' }],
    });
    await queryRunner.query(
      `COMMENT ON TABLE platform.workers IS 'reference table: the live worker processes (id, host, heartbeat), not account data'`,
    );
    await queryRunner.query(
      `COMMENT ON TABLE platform.outbox_reconciliation IS 'reference table: the outbox reconciler''s watermark and Redis marker, not account data'`,
    );
  }

  async down(): Promise<void> {
    throw new Error('PlatformKeysByAccount1800000000000 is not reversible: restore the previous version from a backup');
  }
}
