import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `events` distributable by account (docs/adr/0008): primary keys `(account_id, …)` and foreign keys `(account_id, x_id)`.
 * No row is rewritten: the new indexes are built concurrently and swapped in one short transaction
 * (`leadKeysWithAccount`); the foreign keys are then validated without blocking writes.
 */
export class EventsKeysByAccount1800000001000 implements MigrationInterface {
  name = 'EventsKeysByAccount1800000001000';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('EventsKeysByAccount1800000001000 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'events.events', columns: ['account_id', 'id'] },
    { table: 'events.editions', columns: ['account_id', 'id'] },
    { table: 'events.registrations', columns: ['account_id', 'id'] },
    { table: 'events.custom_events', columns: ['account_id', 'id'] },
  ],
  foreignKeys: [
    { table: 'events.editions', name: 'editions_event_id_fkey', columns: ['account_id', 'event_id'], references: 'events.events', referencedColumns: ['account_id', 'id'] },
    { table: 'events.registrations', name: 'registrations_event_id_fkey', columns: ['account_id', 'event_id'], references: 'events.events', referencedColumns: ['account_id', 'id'] },
    { table: 'events.registrations', name: 'registrations_edition_id_fkey', columns: ['account_id', 'edition_id'], references: 'events.editions', referencedColumns: ['account_id', 'id'] },
  ],
};
