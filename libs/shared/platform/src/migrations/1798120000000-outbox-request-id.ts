import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 17, item 4: an outbox row keeps the id of the api request whose write produced it
 * (`X-Request-ID`), so the worker's log lines for the event, its webhook deliveries and its emails carry
 * `request_id`. Null for events no api request made (the worker's own writes, scheduled jobs) and for the
 * rows written before this migration. Adding a nullable column without a default rewrites nothing.
 */
export class OutboxRequestId1798120000000 implements MigrationInterface {
  name = 'OutboxRequestId1798120000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform.outbox ADD COLUMN request_id text NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform.outbox DROP COLUMN request_id`);
  }
}
