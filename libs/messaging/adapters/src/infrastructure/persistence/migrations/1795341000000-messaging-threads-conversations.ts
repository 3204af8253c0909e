import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema `messaging`: email threads (one per account and recipient address, fed by every non-test
 * email of the outgoing-email path; `outgoing_emails.thread_id` links each email) and chat
 * conversations with their messages (read-only API, seeded by blueprints). Indexes lead with `account_id`.
 */
export class MessagingThreadsConversations1795341000000 implements MigrationInterface {
  name = 'MessagingThreadsConversations1795341000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE messaging.email_threads (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        address text NOT NULL CHECK (address = lower(address)),
        subject text NOT NULL,
        contact_id uuid NULL,
        participants text[] NOT NULL,
        message_count int NOT NULL CHECK (message_count >= 1),
        last_message_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT email_threads_account_id_key UNIQUE (account_id, id),
        CONSTRAINT email_threads_account_address_key UNIQUE (account_id, address)
      )`);
    // GET /v1/emails/conversations: last_message_at DESC, id DESC.
    await queryRunner.query(`CREATE INDEX email_threads_account_last_message_idx ON messaging.email_threads (account_id, last_message_at DESC, id DESC)`);
    await queryRunner.query(`ALTER TABLE messaging.outgoing_emails ADD COLUMN thread_id uuid NULL`);
    await queryRunner.query(`
      CREATE TABLE messaging.conversations (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        agent_slug text NULL,
        agent_identity_id text NULL,
        source text NULL,
        contact_email text NULL,
        message_count int NOT NULL DEFAULT 0,
        last_message_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT conversations_account_id_key UNIQUE (account_id, id)
      )`);
    // GET /v1/conversations: newest first, optionally filtered by agent_slug, agent_identity_id, source.
    await queryRunner.query(`CREATE INDEX conversations_account_created_idx ON messaging.conversations (account_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX conversations_account_agent_idx ON messaging.conversations (account_id, agent_slug, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX conversations_account_identity_idx ON messaging.conversations (account_id, agent_identity_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX conversations_account_source_idx ON messaging.conversations (account_id, source, created_at DESC, id DESC)`);
    await queryRunner.query(`
      CREATE TABLE messaging.conversation_messages (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        conversation_id uuid NOT NULL,
        role text NOT NULL,
        author_kind text NOT NULL,
        author_name text NULL,
        content text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT conversation_messages_conversation_fkey FOREIGN KEY (account_id, conversation_id)
          REFERENCES messaging.conversations (account_id, id) ON DELETE CASCADE
      )`);
    // GET /v1/conversations/{id}/messages: created_at ASC, id ASC.
    await queryRunner.query(
      `CREATE INDEX conversation_messages_account_conversation_idx ON messaging.conversation_messages (account_id, conversation_id, created_at, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS messaging.conversation_messages`);
    await queryRunner.query(`DROP TABLE IF EXISTS messaging.conversations`);
    await queryRunner.query(`ALTER TABLE messaging.outgoing_emails DROP COLUMN IF EXISTS thread_id`);
    await queryRunner.query(`DROP TABLE IF EXISTS messaging.email_threads`);
  }
}
