import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema `quotes`: owned by the quotes context (tables, indexes leading with account_id). */
export class QuotesInit1795324197792 implements MigrationInterface {
  name = 'QuotesInit1795324197792';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS quotes`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS quotes CASCADE`);
  }
}
