import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, buildIndexConcurrently, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `automations` distributable by account (docs/adr/0008): primary keys `(account_id, …)` and foreign keys `(account_id, x_id)`.
 * No row is rewritten: the new indexes are built concurrently and swapped in one short transaction
 * (`leadKeysWithAccount`); the foreign keys are then validated without blocking writes. A plain
 * `(id)` index stays for the execution runner, which leases and updates an execution by id alone (not a key).
 */
export class AutomationsKeysByAccount1800000000900 implements MigrationInterface {
  name = 'AutomationsKeysByAccount1800000000900';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await buildIndexConcurrently(queryRunner, 'automations.executions', 'executions_id_idx', '(id)');
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('AutomationsKeysByAccount1800000000900 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'automations.automations', columns: ['account_id', 'id'] },
    { table: 'automations.executions', columns: ['account_id', 'id'] },
  ],
  foreignKeys: [
    { table: 'automations.executions', name: 'executions_automation_id_fkey', columns: ['account_id', 'automation_id'], references: 'automations.automations', referencedColumns: ['account_id', 'id'] },
    { table: 'automations.execution_steps', name: 'execution_steps_execution_id_fkey', columns: ['account_id', 'execution_id'], references: 'automations.executions', referencedColumns: ['account_id', 'id'], onDelete: 'CASCADE' },
  ],
};
