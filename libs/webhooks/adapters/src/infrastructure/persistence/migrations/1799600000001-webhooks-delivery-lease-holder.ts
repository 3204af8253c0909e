import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lease takeover (docs/adr/0004): `deliveries.locked_by` names the worker (`platform.workers.id`) whose
 * attempt holds `locked_until`, so a dead worker's attempts are taken over at once instead of when the
 * lease runs out. No index of its own (an index on a column every claim writes would stop the claim's
 * updates from being HOT); the takeover reads the waiting rows through `deliveries_due_idx`.
 */
export class WebhooksDeliveryLeaseHolder1799600000001 implements MigrationInterface {
  name = 'WebhooksDeliveryLeaseHolder1799600000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries ADD COLUMN locked_by uuid NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries DROP COLUMN locked_by`);
  }
}
