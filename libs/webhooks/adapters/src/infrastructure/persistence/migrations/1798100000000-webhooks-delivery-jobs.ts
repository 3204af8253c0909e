import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery retries move to BullMQ (`attempts` + the retry schedule as a custom backoff, one job per
 * delivery): `job_id` names the queue job that last took charge of the delivery (null = the delivery id,
 * the fan-out's job), so the sweeper checks that very job before deciding a delivery's job was lost.
 */
export class WebhooksDeliveryJobs1798100000000 implements MigrationInterface {
  name = 'WebhooksDeliveryJobs1798100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries ADD COLUMN IF NOT EXISTS job_id text NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries DROP COLUMN IF EXISTS job_id`);
  }
}
