import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 11 (soak): a delivery no longer carries its own copy of the event's body. The body is stored once
 * per event in `webhooks.event_samples` (written by the same statement as the deliveries) and the claim
 * reads it from there; `deliveries.body` stays for rows written before this migration and is NULL for new
 * ones. Every claim and every recorded attempt rewrites a delivery's row (PostgreSQL writes a new row
 * version, and the whole version to the WAL): without the body a version is ~300 bytes instead of ~2 KB.
 * A fill factor of 70 leaves room on each page for the claim's new version to stay on the row's page
 * (a HOT update: no new index entries, reclaimed by page pruning without waiting for VACUUM).
 */
export class WebhooksDeliveryBodyByEvent1799100000000 implements MigrationInterface {
  name = 'WebhooksDeliveryBodyByEvent1799100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries ALTER COLUMN body DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE webhooks.deliveries SET (fillfactor = 70)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries RESET (fillfactor)`);
    await queryRunner.query(
      `UPDATE webhooks.deliveries d SET body = COALESCE((SELECT e.body FROM webhooks.event_samples e WHERE e.event_id = d.event_id), '{}'::jsonb) WHERE d.body IS NULL`,
    );
    await queryRunner.query(`ALTER TABLE webhooks.deliveries ALTER COLUMN body SET NOT NULL`);
  }
}
