import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `bookings` distributable by account (docs/adr/0008): primary keys `(account_id, …)` and foreign keys `(account_id, x_id)`.
 * No row is rewritten: the new indexes are built concurrently and swapped in one short transaction
 * (`leadKeysWithAccount`); the foreign keys are then validated without blocking writes.
 */
export class BookingsKeysByAccount1800000000700 implements MigrationInterface {
  name = 'BookingsKeysByAccount1800000000700';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('BookingsKeysByAccount1800000000700 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'bookings.calendars', columns: ['account_id', 'id'] },
    { table: 'bookings.bookings', columns: ['account_id', 'id'] },
    { table: 'bookings.host_busy_times', columns: ['account_id', 'id'] },
    { table: 'bookings.host_calendar_events', columns: ['account_id', 'booking_id'] },
  ],
  foreignKeys: [
    { table: 'bookings.bookings', name: 'bookings_calendar_id_fkey', columns: ['account_id', 'calendar_id'], references: 'bookings.calendars', referencedColumns: ['account_id', 'id'] },
  ],
};
