import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema `bookings`: owned by the bookings context (tables, indexes leading with account_id). */
export class BookingsInit1795335356795 implements MigrationInterface {
  name = 'BookingsInit1795335356795';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS bookings`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS bookings CASCADE`);
  }
}
