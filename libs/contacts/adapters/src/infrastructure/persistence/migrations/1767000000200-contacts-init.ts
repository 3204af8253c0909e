import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema `contacts`: contacts (a deal is a contact whose stage is set), their identities (email and
 * phone, unique per account across primary and secondary details), custom field definitions, tags,
 * contact tags and notes. Every index leads with `account_id`. Rows of other schemas are referred to
 * by id only (System, pipeline, stage, sales rep): no foreign keys across schemas. Within the schema
 * the repository deletes dependent rows explicitly (filtered on `account_id`, so through the indexes
 * below) instead of foreign-key cascades, whose lookups by `contact_id` alone could use no index.
 */
export class ContactsInit1767000000200 implements MigrationInterface {
  name = 'ContactsInit1767000000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS contacts`);
    await queryRunner.query(`
      CREATE TABLE contacts.contacts (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        first_name text NULL,
        last_name text NULL,
        email text NULL,
        phone text NULL,
        company text NULL,
        deal_value_cents bigint NULL CHECK (deal_value_cents > 0),
        custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
        is_priority boolean NOT NULL DEFAULT false,
        notes text NULL,
        source text NOT NULL,
        system_id uuid NOT NULL,
        pipeline_id uuid NULL,
        stage_id uuid NULL,
        sales_rep_id uuid NULL,
        attribution jsonb NOT NULL DEFAULT '{}'::jsonb,
        address text NULL,
        postal_code text NULL,
        address_place_id text NULL,
        street text NULL,
        city text NULL,
        sector text NULL,
        province text NULL,
        country text NULL,
        archived_at timestamptz NULL,
        merged_into_id uuid NULL,
        merged_at timestamptz NULL,
        disqualified_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (merged_into_id IS NULL OR merged_into_id <> id)
      )`);
    // The list (GET /v1/contacts) and its keyset: merged contacts are never listed.
    await queryRunner.query(
      `CREATE INDEX contacts_list_idx ON contacts.contacts (account_id, created_at DESC, id DESC) WHERE merged_into_id IS NULL`,
    );
    // Stage counts and deal lists (pipeline).
    await queryRunner.query(
      `CREATE INDEX contacts_stage_idx ON contacts.contacts (account_id, stage_id) WHERE stage_id IS NOT NULL AND merged_into_id IS NULL`,
    );
    // Merge chains (survivor resolution, delete of a survivor).
    await queryRunner.query(
      `CREATE INDEX contacts_merged_into_idx ON contacts.contacts (account_id, merged_into_id) WHERE merged_into_id IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE contacts.contact_identities (
        account_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('email', 'phone')),
        value text NOT NULL,
        is_primary boolean NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT contact_identities_unique PRIMARY KEY (account_id, kind, value)
      )`);
    await queryRunner.query(`CREATE INDEX contact_identities_contact_idx ON contacts.contact_identities (account_id, contact_id)`);
    // At most one primary email and one primary phone per contact.
    await queryRunner.query(
      `CREATE UNIQUE INDEX contact_identities_primary_idx ON contacts.contact_identities (account_id, contact_id, kind) WHERE is_primary`,
    );
    await queryRunner.query(`
      CREATE TABLE contacts.custom_field_definitions (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('text', 'long_text', 'url', 'email', 'phone', 'number', 'select', 'date', 'boolean')),
        options jsonb NULL,
        position int NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT custom_field_definitions_name_unique UNIQUE (account_id, name)
      )`);
    await queryRunner.query(`
      CREATE TABLE contacts.tags (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        name text NOT NULL,
        color text NOT NULL,
        description text NULL,
        category text NULL,
        system_key text NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT tags_account_name_unique UNIQUE (account_id, name)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX tags_system_key_idx ON contacts.tags (account_id, system_key) WHERE system_key IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE contacts.contact_tags (
        account_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        tag_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, contact_id, tag_id)
      )`);
    // Tag filter of the list, campaign lead counts.
    await queryRunner.query(`CREATE INDEX contact_tags_tag_idx ON contacts.contact_tags (account_id, tag_id, contact_id)`);
    await queryRunner.query(`
      CREATE TABLE contacts.contact_notes (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        body text NOT NULL,
        actor jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX contact_notes_contact_idx ON contacts.contact_notes (account_id, contact_id, created_at DESC, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA contacts CASCADE`);
  }
}
