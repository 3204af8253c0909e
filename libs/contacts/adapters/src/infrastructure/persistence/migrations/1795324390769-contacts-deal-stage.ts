import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deals (a deal is a contact whose stage is set; public-api-v1 › Deal and pipeline stage):
 * - `contacts.ai_follow_up_stopped_at`: when a human decision (a stage move through the API or the
 *   dashboard) stopped the AI assistant's follow-up of the lead; null while the AI may follow up;
 * - the deal list (`GET /v1/pipeline/deals`, `created_at DESC, id DESC`, merged contacts left out),
 *   unfiltered and by `stage_id`; the second one also serves the stages' `contact_count`.
 */
export class ContactsDealStage1795324390769 implements MigrationInterface {
  name = 'ContactsDealStage1795324390769';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE contacts.contacts ADD COLUMN ai_follow_up_stopped_at timestamptz NULL`);
    await queryRunner.query(
      `CREATE INDEX contacts_deals_idx ON contacts.contacts (account_id, created_at DESC, id DESC)
        WHERE stage_id IS NOT NULL AND merged_into_id IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX contacts_deals_stage_idx ON contacts.contacts (account_id, stage_id, created_at DESC, id DESC)
        WHERE stage_id IS NOT NULL AND merged_into_id IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX contacts.contacts_deals_stage_idx`);
    await queryRunner.query(`DROP INDEX contacts.contacts_deals_idx`);
    await queryRunner.query(`ALTER TABLE contacts.contacts DROP COLUMN ai_follow_up_stopped_at`);
  }
}
