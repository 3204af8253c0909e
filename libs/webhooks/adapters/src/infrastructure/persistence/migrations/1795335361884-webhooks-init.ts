import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema `webhooks`: owned by the webhooks context (tables, indexes leading with account_id). */
export class WebhooksInit1795335361884 implements MigrationInterface {
  name = 'WebhooksInit1795335361884';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS webhooks`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS webhooks CASCADE`);
  }
}
