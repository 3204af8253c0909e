import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lead score (issue 13 item 6; README › Decisions › Lead score) on `contacts.contacts`:
 * - `score` smallint 0–100, set by the contact's INSERT (initial score) and then only by the worker's
 *   `lead-score` consumer. Existing contacts start at 0, due for a recompute at once;
 * - `score_review_at`: when the score's recency part next drops, or null. The worker's hourly pass
 *   recomputes the contacts due (`contacts_score_review_idx`, partial: only contacts with a pending
 *   review). That pass is the one system job that reads across accounts, so its index does not lead
 *   with `account_id`.
 * Adding both columns rewrites nothing (constant and `now()` defaults are stored in the catalog).
 */
export class ContactsLeadScore1797100000000 implements MigrationInterface {
  name = 'ContactsLeadScore1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE contacts.contacts ADD COLUMN score smallint NOT NULL DEFAULT 0 CONSTRAINT contacts_score_range CHECK (score BETWEEN 0 AND 100)`);
    await queryRunner.query(`ALTER TABLE contacts.contacts ADD COLUMN score_review_at timestamptz NULL DEFAULT now()`);
    await queryRunner.query(`ALTER TABLE contacts.contacts ALTER COLUMN score_review_at DROP DEFAULT`);
    await queryRunner.query(`CREATE INDEX contacts_score_review_idx ON contacts.contacts (score_review_at) WHERE score_review_at IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS contacts.contacts_score_review_idx`);
    await queryRunner.query(`ALTER TABLE contacts.contacts DROP COLUMN IF EXISTS score_review_at`);
    await queryRunner.query(`ALTER TABLE contacts.contacts DROP COLUMN IF EXISTS score`);
  }
}
