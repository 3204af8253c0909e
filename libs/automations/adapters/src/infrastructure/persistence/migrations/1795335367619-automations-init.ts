import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema `automations`: owned by the automations context (tables, indexes leading with account_id). */
export class AutomationsInit1795335367619 implements MigrationInterface {
  name = 'AutomationsInit1795335367619';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS automations`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS automations CASCADE`);
  }
}
