import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema `events`: owned by the events context (tables, indexes leading with account_id). */
export class EventsInit1795335372884 implements MigrationInterface {
  name = 'EventsInit1795335372884';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS events`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS events CASCADE`);
  }
}
