import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema `messaging`: outgoing emails (the outgoing-email path: QueueEmailCommand, the worker's
 * delivery) and every status change of each. Indexes lead with `account_id`.
 */
export class MessagingOutgoingEmails1795324666428 implements MigrationInterface {
  name = 'MessagingOutgoingEmails1795324666428';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE messaging.outgoing_emails (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        "to" text NOT NULL,
        from_email text NOT NULL,
        from_name text NULL,
        reply_to text NULL,
        subject text NOT NULL,
        html text NOT NULL,
        type text NOT NULL,
        priority int NOT NULL CHECK (priority BETWEEN 1 AND 10),
        is_test boolean NOT NULL DEFAULT false,
        contact_id uuid NULL,
        source jsonb NULL,
        status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        last_error text NULL,
        provider_message_id text NULL,
        created_at timestamptz NOT NULL,
        sent_at timestamptz NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT outgoing_emails_account_id_key UNIQUE (account_id, id)
      )`);
    // GET /admin/v1/accounts/{id}/emails: newest first.
    await queryRunner.query(`CREATE INDEX outgoing_emails_account_created_idx ON messaging.outgoing_emails (account_id, created_at DESC, id DESC)`);
    // A contact's emails (conversation history).
    await queryRunner.query(
      `CREATE INDEX outgoing_emails_account_contact_idx ON messaging.outgoing_emails (account_id, contact_id, created_at DESC) WHERE contact_id IS NOT NULL`,
    );
    // Test sends of the rolling 24 hours (the shared test quota).
    await queryRunner.query(`CREATE INDEX outgoing_emails_account_tests_idx ON messaging.outgoing_emails (account_id, created_at) WHERE is_test`);
    await queryRunner.query(`
      CREATE TABLE messaging.outgoing_email_status_changes (
        id uuid PRIMARY KEY,
        sequence bigserial NOT NULL,
        account_id uuid NOT NULL,
        email_id uuid NOT NULL,
        from_status text NULL,
        to_status text NOT NULL CHECK (to_status IN ('queued', 'sending', 'sent', 'failed')),
        attempt int NOT NULL,
        error text NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT outgoing_email_status_changes_email_fkey FOREIGN KEY (account_id, email_id)
          REFERENCES messaging.outgoing_emails (account_id, id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX outgoing_email_status_changes_email_idx ON messaging.outgoing_email_status_changes (account_id, email_id, sequence)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS messaging.outgoing_email_status_changes`);
    await queryRunner.query(`DROP TABLE IF EXISTS messaging.outgoing_emails`);
  }
}
