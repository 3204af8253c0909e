import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `automations.automations` (definitions provisioned by the operator), `automations.executions` (one
 * run for one contact; the engine's source of truth: status, step cursor, lease, retry count) and
 * `automations.execution_steps` (one row per finished step, written in the step's transaction: the
 * per-step marker that makes a restarted run skip what was done). Every index leads with account_id.
 */
export class AutomationsExecutions1795340000000 implements MigrationInterface {
  name = 'AutomationsExecutions1795340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE automations.automations (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        name text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        is_published boolean NOT NULL DEFAULT true,
        allow_concurrent_runs boolean NOT NULL DEFAULT false,
        trigger_type text NULL,
        trigger jsonb NULL,
        steps jsonb NOT NULL DEFAULT '[]'::jsonb,
        archived_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX automations_account_name_uq ON automations.automations (account_id, name) WHERE archived_at IS NULL`);
    await queryRunner.query(`CREATE INDEX automations_account_list_idx ON automations.automations (account_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX automations_account_trigger_idx ON automations.automations (account_id, trigger_type) WHERE archived_at IS NULL`);

    await queryRunner.query(`
      CREATE TABLE automations.executions (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        automation_id uuid NOT NULL REFERENCES automations.automations (id),
        contact_id uuid NOT NULL,
        status text NOT NULL,
        trigger_type text NOT NULL,
        event_data jsonb NOT NULL DEFAULT '{}'::jsonb,
        event_fingerprint text NOT NULL,
        source_event_id uuid NULL,
        steps jsonb NOT NULL,
        step_index integer NOT NULL DEFAULT 0,
        retry_count integer NOT NULL DEFAULT 0,
        lease_token uuid NULL,
        lease_expires_at timestamptz NULL,
        resume_at timestamptz NULL,
        error jsonb NULL,
        started_at timestamptz NULL,
        finished_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT executions_status_ck CHECK (status IN ('pending', 'running', 'waiting', 'completed', 'failed'))
      )`);
    await queryRunner.query(`CREATE INDEX executions_history_idx ON automations.executions (account_id, automation_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX executions_contact_idx ON automations.executions (account_id, automation_id, contact_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX executions_account_created_idx ON automations.executions (account_id, created_at)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX executions_source_event_uq ON automations.executions (account_id, automation_id, source_event_id) WHERE source_event_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX executions_unfinished_idx ON automations.executions (account_id, status, lease_expires_at) WHERE status IN ('pending', 'running', 'waiting')`,
    );

    await queryRunner.query(`
      CREATE TABLE automations.execution_steps (
        account_id uuid NOT NULL,
        execution_id uuid NOT NULL REFERENCES automations.executions (id) ON DELETE CASCADE,
        step_index integer NOT NULL,
        type text NOT NULL,
        result jsonb NOT NULL DEFAULT '{}'::jsonb,
        retry_count integer NOT NULL,
        completed_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, execution_id, step_index)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS automations.execution_steps`);
    await queryRunner.query(`DROP TABLE IF EXISTS automations.executions`);
    await queryRunner.query(`DROP TABLE IF EXISTS automations.automations`);
  }
}
