import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Presuasion submissions (`POST /v1/presuasion/submissions`; README › Decisions › Presuasion
 * submissions) in schema `contacts`: one row per submission of a quiz, calculator or pre-qualification
 * form, linked to the contact it resolved to and to the tool's tag (category `presuasion`). The primary
 * key leads with `account_id` like every index; the answers, the person as sent, the consents and the
 * attribution are kept as posted (jsonb), the tool and dates as columns for the filters.
 * - `(account_id, created_at DESC, id DESC)`: the list and its keyset;
 * - `(account_id, tool_slug, created_at DESC, id DESC)`: the `tool` filter;
 * - `(account_id, contact_id, created_at DESC, id DESC)`: the `contact_id` filter (and a contact's deletion).
 */
export class ContactsPresuasionSubmissions1796412000000 implements MigrationInterface {
  name = 'ContactsPresuasionSubmissions1796412000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE contacts.presuasion_submissions (
        account_id uuid NOT NULL,
        id uuid NOT NULL,
        tool_slug text NOT NULL CHECK (tool_slug ~ '^[a-z0-9][a-z0-9_-]{0,99}$'),
        tool_name text NOT NULL,
        form_id text NULL,
        contact_id uuid NOT NULL,
        contact_was_new boolean NOT NULL,
        tag_id uuid NOT NULL,
        activity_id uuid NOT NULL,
        answers jsonb NOT NULL,
        score double precision NULL,
        outcome text NULL,
        person jsonb NOT NULL,
        consent jsonb NOT NULL,
        attribution jsonb NOT NULL,
        submitted_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT presuasion_submissions_pkey PRIMARY KEY (account_id, id)
      )`);
    await queryRunner.query(`CREATE INDEX presuasion_submissions_list_idx ON contacts.presuasion_submissions (account_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX presuasion_submissions_tool_idx ON contacts.presuasion_submissions (account_id, tool_slug, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX presuasion_submissions_contact_idx ON contacts.presuasion_submissions (account_id, contact_id, created_at DESC, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS contacts.presuasion_submissions`);
  }
}
