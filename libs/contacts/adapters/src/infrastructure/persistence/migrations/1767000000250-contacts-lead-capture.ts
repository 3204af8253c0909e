import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lead capture (public-api-v1 › Endpoints › Leads) in schema `contacts`:
 * - `contacts.source_label` (first capture's free-form label) and `contacts.expected_close_date`
 *   (the pipeline block's date);
 * - `lead_captures`: one row per recorded capture; the per-contact 5 minute window reads the latest
 *   one through `(account_id, contact_id, captured_at DESC)`;
 * - `sms_handoffs`: the SMS follow-up hand-off of a captured lead, one per `lead_created` event
 *   (unique `(account_id, event_id)`: a redelivered job records nothing twice).
 */
export class ContactsLeadCapture1767000000250 implements MigrationInterface {
  name = 'ContactsLeadCapture1767000000250';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE contacts.contacts ADD COLUMN source_label text NULL, ADD COLUMN expected_close_date date NULL`);
    await queryRunner.query(`
      CREATE TABLE contacts.lead_captures (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        activity_id uuid NOT NULL,
        contact_was_new boolean NOT NULL,
        captured_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX lead_captures_contact_idx ON contacts.lead_captures (account_id, contact_id, captured_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE contacts.sms_handoffs (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        event_id uuid NOT NULL,
        contact_id uuid NOT NULL,
        capture_id uuid NOT NULL,
        phone text NOT NULL,
        first_name text NULL,
        status text NOT NULL,
        captured_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT sms_handoffs_event_unique UNIQUE (account_id, event_id)
      )`);
    await queryRunner.query(`CREATE INDEX sms_handoffs_contact_idx ON contacts.sms_handoffs (account_id, contact_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX sms_handoffs_pending_idx ON contacts.sms_handoffs (account_id, created_at) WHERE status = 'pending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE contacts.sms_handoffs`);
    await queryRunner.query(`DROP TABLE contacts.lead_captures`);
    await queryRunner.query(`ALTER TABLE contacts.contacts DROP COLUMN expected_close_date, DROP COLUMN source_label`);
  }
}
