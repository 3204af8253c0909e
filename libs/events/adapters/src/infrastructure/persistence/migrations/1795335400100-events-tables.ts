import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema `events`: events and their editions (operator blueprint member `events`), registrations
 * (one per contact and edition: the unique index makes concurrent first registrations one row) and
 * ingested custom events (POST /v1/events, recorded on the contact). Contacts are referred to by id
 * only (other schema, no foreign key). Every index leads with `account_id`.
 */
export class EventsTables1795335400100 implements MigrationInterface {
  name = 'EventsTables1795335400100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE events.events (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        slug text NOT NULL,
        name text NOT NULL,
        status text NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
        languages text[] NOT NULL CHECK (cardinality(languages) >= 1),
        created_at timestamptz NOT NULL,
        CONSTRAINT events_slug_unique UNIQUE (account_id, slug)
      )`);
    await queryRunner.query(`
      CREATE TABLE events.editions (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        event_id uuid NOT NULL REFERENCES events.events (id),
        name text NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'cancelled', 'ended')),
        position int NOT NULL,
        CHECK (ends_at > starts_at)
      )`);
    await queryRunner.query(`CREATE INDEX editions_event_idx ON events.editions (account_id, event_id, position)`);
    await queryRunner.query(`
      CREATE TABLE events.registrations (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        event_id uuid NOT NULL REFERENCES events.events (id),
        edition_id uuid NOT NULL REFERENCES events.editions (id),
        language text NOT NULL,
        status text NOT NULL CHECK (status IN ('registered', 'declined')),
        opted_out_at timestamptz NULL,
        confirmation_email_id uuid NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT registrations_edition_contact_unique UNIQUE (account_id, edition_id, contact_id)
      )`);
    await queryRunner.query(`CREATE INDEX registrations_contact_idx ON events.registrations (account_id, contact_id)`);
    await queryRunner.query(`
      CREATE TABLE events.custom_events (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        name text NOT NULL,
        payload jsonb NOT NULL DEFAULT '{}'::jsonb,
        payload_truncated boolean NOT NULL DEFAULT false,
        source_label text NULL,
        contact_archived boolean NOT NULL,
        contact_created boolean NOT NULL,
        enrolled_executions int NOT NULL,
        api_key_id uuid NULL,
        created_at timestamptz NOT NULL
      )`);
    // The contact's events, newest first.
    await queryRunner.query(`CREATE INDEX custom_events_contact_idx ON events.custom_events (account_id, contact_id, created_at DESC, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['custom_events', 'registrations', 'editions', 'events']) {
      await queryRunner.query(`DROP TABLE IF EXISTS events.${table}`);
    }
  }
}
