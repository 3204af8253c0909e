import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `webhooks` distributable by account (docs/adr/0008): primary keys `(account_id, …)` and foreign keys `(account_id, x_id)`.
 * No row is rewritten: the new indexes are built concurrently and swapped in one short transaction
 * (`leadKeysWithAccount`); the foreign keys are then validated without blocking writes.
 */
export class WebhooksKeysByAccount1800000000800 implements MigrationInterface {
  name = 'WebhooksKeysByAccount1800000000800';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('WebhooksKeysByAccount1800000000800 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'webhooks.subscriptions', columns: ['account_id', 'id'] },
    { table: 'webhooks.deliveries', columns: ['account_id', 'id'] },
    { table: 'webhooks.delivery_attempts', columns: ['account_id', 'id'] },
    { table: 'webhooks.event_samples', columns: ['account_id', 'event_id'] },
  ],
  foreignKeys: [
    { table: 'webhooks.delivery_attempts', name: 'delivery_attempts_delivery_id_fkey', columns: ['account_id', 'delivery_id'], references: 'webhooks.deliveries', referencedColumns: ['account_id', 'id'], onDelete: 'CASCADE' },
  ],
};
