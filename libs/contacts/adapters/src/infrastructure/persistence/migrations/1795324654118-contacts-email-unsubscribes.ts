import { MigrationInterface, QueryRunner } from 'typeorm';

/** The account's unsubscribe list: addresses (lowercase) that receive no more emails (quote send: 409 `recipient_unsubscribed`). */
export class ContactsEmailUnsubscribes1795324654118 implements MigrationInterface {
  name = 'ContactsEmailUnsubscribes1795324654118';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE contacts.email_unsubscribes (
        account_id uuid NOT NULL,
        email text NOT NULL,
        unsubscribed_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, email)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS contacts.email_unsubscribes`);
  }
}
