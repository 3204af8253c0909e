import { MigrationInterface, QueryRunner } from 'typeorm';
import { AccountKeysPlan, leadKeysWithAccount } from '@leadflow/shared-platform';

/**
 * Schema `pipeline` distributable by account (docs/adr/0008): primary keys `(account_id, …)` and foreign keys `(account_id, x_id)`.
 * No row is rewritten: the new indexes are built concurrently and swapped in one short transaction
 * (`leadKeysWithAccount`); the foreign keys are then validated without blocking writes.
 */
export class PipelineKeysByAccount1800000000400 implements MigrationInterface {
  name = 'PipelineKeysByAccount1800000000400';
  /** `CREATE INDEX CONCURRENTLY` cannot run in a transaction; `leadKeysWithAccount` opens its own short one. */
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await leadKeysWithAccount(queryRunner, PLAN);
  }

  async down(): Promise<void> {
    throw new Error('PipelineKeysByAccount1800000000400 is not reversible: restore the previous version from a backup');
  }
}

const PLAN: AccountKeysPlan = {
  primaryKeys: [
    { table: 'pipeline.pipelines', columns: ['account_id', 'id'] },
    { table: 'pipeline.stages', columns: ['account_id', 'id'] },
  ],
  dropUniques: [
    { table: 'pipeline.pipelines', name: 'pipelines_account_id_key' },
    { table: 'pipeline.stages', name: 'stages_account_id_key' },
  ],
  foreignKeys: [
    { table: 'pipeline.stages', name: 'stages_pipeline_fkey', columns: ['account_id', 'pipeline_id'], references: 'pipeline.pipelines', referencedColumns: ['account_id', 'id'], onDelete: 'CASCADE' },
  ],
};
