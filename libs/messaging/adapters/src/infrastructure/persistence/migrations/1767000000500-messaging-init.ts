import { MigrationInterface, QueryRunner } from 'typeorm';

/** Schema `messaging`: senders (one default per account). Outgoing emails and threads come later. */
export class MessagingInit1767000000500 implements MigrationInterface {
  name = 'MessagingInit1767000000500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS messaging`);
    await queryRunner.query(`
      CREATE TABLE messaging.senders (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        email text NOT NULL CHECK (email = lower(email)),
        name text NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        CONSTRAINT senders_account_id_key UNIQUE (account_id, id),
        CONSTRAINT senders_account_email_key UNIQUE (account_id, email)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX senders_one_default_idx ON messaging.senders (account_id) WHERE is_default`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA IF EXISTS messaging CASCADE`);
  }
}
