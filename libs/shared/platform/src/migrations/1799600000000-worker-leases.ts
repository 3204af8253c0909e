import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lease takeover and fast reconciliation (docs/adr/0004-lease-takeover-and-fast-reconciliation.md).
 *
 * - `platform.workers`: one row per live worker process (`id` a uuid made at start, `host` its machine
 *   and PID namespace, `pid`), `heartbeat_at` refreshed every second. A lease row names its holder by
 *   this id, so the leases of a dead worker are taken over as soon as its death is known.
 * - `platform.outbox_reconciliation.redis_marker`, `redis_seen_at`, `lost_before`: the marker key the
 *   reconciler keeps in Redis, when it last saw it, and the time before which an unrecorded relayed event
 *   counts as lost with Redis's data (re-enqueued without waiting for the grace).
 */
export class WorkerLeases1799600000000 implements MigrationInterface {
  name = 'WorkerLeases1799600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE platform.workers (
        id uuid PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `ALTER TABLE platform.outbox_reconciliation ADD COLUMN redis_marker text NULL, ADD COLUMN redis_seen_at timestamptz NULL, ADD COLUMN lost_before timestamptz NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform.outbox_reconciliation DROP COLUMN redis_marker, DROP COLUMN redis_seen_at, DROP COLUMN lost_before`);
    await queryRunner.query(`DROP TABLE platform.workers`);
  }
}
