import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema `pipeline`: pipelines and their stages.
 *
 * Keys are laid out for the deals of a later migration: a deal (a contact whose stage is set) will
 * reference `(account_id, pipeline_id, stage_id)` → `stages (account_id, pipeline_id, id)`, so the
 * database itself refuses a stage of another account or a stage outside the deal's pipeline
 * (`other_pipeline`); stages of a pipeline cascade with it. No foreign key leaves the schema
 * (accounts are referenced by id only). Slug formats and the won/lost exclusion are checked here too,
 * as a last line behind the domain rules.
 */
export class PipelineInit1767000000400 implements MigrationInterface {
  name = 'PipelineInit1767000000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS pipeline`);
    await queryRunner.query(`
      CREATE TABLE pipeline.pipelines (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        name text NOT NULL,
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9_-]*$' AND length(slug) <= 100),
        is_default boolean NOT NULL DEFAULT false,
        dashboard_order int NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT pipelines_account_id_key UNIQUE (account_id, id),
        CONSTRAINT pipelines_account_slug_key UNIQUE (account_id, slug)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX pipelines_one_default_idx ON pipeline.pipelines (account_id) WHERE is_default`);
    await queryRunner.query(`CREATE INDEX pipelines_account_order_idx ON pipeline.pipelines (account_id, dashboard_order, id)`);
    await queryRunner.query(`
      CREATE TABLE pipeline.stages (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        pipeline_id uuid NOT NULL,
        name text NOT NULL,
        slug text NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9_-]*$' AND length(slug) <= 100),
        stage_order int NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        is_hidden boolean NOT NULL DEFAULT false,
        is_won boolean NOT NULL DEFAULT false,
        is_lost boolean NOT NULL DEFAULT false,
        is_disqualification boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        CONSTRAINT stages_pipeline_fkey FOREIGN KEY (account_id, pipeline_id)
          REFERENCES pipeline.pipelines (account_id, id) ON DELETE CASCADE,
        CONSTRAINT stages_account_id_key UNIQUE (account_id, id),
        CONSTRAINT stages_account_pipeline_id_key UNIQUE (account_id, pipeline_id, id),
        CONSTRAINT stages_pipeline_slug_key UNIQUE (account_id, pipeline_id, slug),
        CONSTRAINT stages_won_excludes_lost CHECK (NOT (is_won AND (is_lost OR is_disqualification)))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX stages_one_default_idx ON pipeline.stages (account_id, pipeline_id) WHERE is_default`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX stages_one_disqualification_idx ON pipeline.stages (account_id, pipeline_id) WHERE is_disqualification`,
    );
    await queryRunner.query(`CREATE INDEX stages_account_order_idx ON pipeline.stages (account_id, pipeline_id, stage_order, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS pipeline CASCADE`);
  }
}
