import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bookings context's tables (schema `bookings`), every index leading with `account_id`:
 * - `calendars`: one per blueprint calendar (public-api-v1 calls it an event type); hosts are team member
 *   ids of the accounts context (`host_ids`, no foreign key across schemas); availability and questions
 *   as JSON;
 * - `bookings`: `start_at`/`end_at` UTC instants (end = start + the calendar's duration); `archived_at`
 *   set when the contact is deleted; partial indexes for the list (`start_at DESC, id DESC`), a host's
 *   confirmed bookings by time, a contact's bookings per calendar, and a calendar's bookings;
 * - `host_busy_times` and `host_calendar_events`: the default ExternalCalendarPort adapter (blocked times,
 *   busy times of the external calendar, and the events bookings put in the hosts' calendars).
 */
export class BookingsCalendars1795340000000 implements MigrationInterface {
  name = 'BookingsCalendars1795340000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE bookings.calendars (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        name text NOT NULL,
        duration_minutes integer NOT NULL CHECK (duration_minutes > 0),
        slot_interval_minutes integer NOT NULL CHECK (slot_interval_minutes > 0),
        min_notice_minutes integer NOT NULL CHECK (min_notice_minutes >= 0),
        max_days_ahead integer NOT NULL CHECK (max_days_ahead >= 0),
        daily_max integer NULL CHECK (daily_max > 0),
        capacity integer NOT NULL CHECK (capacity > 0),
        timezone text NOT NULL,
        host_ids uuid[] NOT NULL DEFAULT '{}',
        availability jsonb NOT NULL DEFAULT '[]'::jsonb,
        questions jsonb NOT NULL DEFAULT '[]'::jsonb,
        requires_qualified_lead boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        meeting_link text NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX calendars_name_idx ON bookings.calendars (account_id, name)`);
    await queryRunner.query(`
      CREATE TABLE bookings.bookings (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        calendar_id uuid NOT NULL REFERENCES bookings.calendars (id),
        contact_id uuid NOT NULL,
        host_id uuid NOT NULL,
        meeting_link text NULL,
        start_at timestamptz NOT NULL,
        end_at timestamptz NOT NULL,
        status text NOT NULL CHECK (status IN ('confirmed', 'cancelled', 'completed', 'no_show')),
        timezone text NULL,
        guest_name text NULL,
        guest_email text NULL,
        guest_phone text NULL,
        notes text NULL,
        form_responses jsonb NOT NULL DEFAULT '{}'::jsonb,
        cancelled_at timestamptz NULL,
        cancelled_by text NULL,
        archived_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (end_at > start_at),
        CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX bookings_list_idx ON bookings.bookings (account_id, start_at DESC, id DESC) WHERE archived_at IS NULL`);
    await queryRunner.query(
      `CREATE INDEX bookings_host_time_idx ON bookings.bookings (account_id, host_id, start_at) WHERE status = 'confirmed' AND archived_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX bookings_contact_idx ON bookings.bookings (account_id, contact_id, calendar_id, start_at)`);
    await queryRunner.query(`CREATE INDEX bookings_calendar_idx ON bookings.bookings (account_id, calendar_id, start_at DESC, id DESC) WHERE archived_at IS NULL`);
    await queryRunner.query(`
      CREATE TABLE bookings.host_busy_times (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        host_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('blocked_time', 'google_busy')),
        start_at timestamptz NOT NULL,
        end_at timestamptz NOT NULL,
        note text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (end_at > start_at)
      )`);
    await queryRunner.query(`CREATE INDEX host_busy_times_host_idx ON bookings.host_busy_times (account_id, host_id, start_at)`);
    await queryRunner.query(`
      CREATE TABLE bookings.host_calendar_events (
        booking_id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        calendar_id uuid NOT NULL,
        host_id uuid NOT NULL,
        title text NOT NULL,
        start_at timestamptz NOT NULL,
        end_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        removed_at timestamptz NULL
      )`);
    await queryRunner.query(`CREATE INDEX host_calendar_events_host_idx ON bookings.host_calendar_events (account_id, host_id, start_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE bookings.host_calendar_events`);
    await queryRunner.query(`DROP TABLE bookings.host_busy_times`);
    await queryRunner.query(`DROP TABLE bookings.bookings`);
    await queryRunner.query(`DROP TABLE bookings.calendars`);
  }
}
