import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 15, items 1–3: secret rotation (the previous secret, encrypted, kept until
 * `previous_secret_expires_at`), disabled subscriptions (`disabled_at`, `disabled_reason`), the failing
 * streak (`failing_since`: first failed attempt since the last success, for the 5-day rule), and the
 * public delivery log (first 1 KiB of each answer; an index for the per-subscription keyset list).
 */
export class WebhooksRotationLogDisable1798200000000 implements MigrationInterface {
  name = 'WebhooksRotationLogDisable1798200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE webhooks.subscriptions
        ADD COLUMN IF NOT EXISTS previous_secret_ciphertext text NULL,
        ADD COLUMN IF NOT EXISTS previous_secret_expires_at timestamptz NULL,
        ADD COLUMN IF NOT EXISTS disabled_at timestamptz NULL,
        ADD COLUMN IF NOT EXISTS disabled_reason text NULL,
        ADD COLUMN IF NOT EXISTS failing_since timestamptz NULL`);
    await queryRunner.query(`
      CREATE INDEX IF NOT EXISTS subscriptions_previous_secret_idx ON webhooks.subscriptions (previous_secret_expires_at)
       WHERE previous_secret_expires_at IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE webhooks.delivery_attempts ADD COLUMN IF NOT EXISTS response_body text NULL`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS deliveries_account_subscription_created_idx ON webhooks.deliveries (account_id, subscription_id, created_at DESC, id DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS webhooks.deliveries_account_subscription_created_idx`);
    await queryRunner.query(`ALTER TABLE webhooks.delivery_attempts DROP COLUMN IF EXISTS response_body`);
    await queryRunner.query(`DROP INDEX IF EXISTS webhooks.subscriptions_previous_secret_idx`);
    await queryRunner.query(`
      ALTER TABLE webhooks.subscriptions
        DROP COLUMN IF EXISTS previous_secret_ciphertext, DROP COLUMN IF EXISTS previous_secret_expires_at,
        DROP COLUMN IF EXISTS disabled_at, DROP COLUMN IF EXISTS disabled_reason, DROP COLUMN IF EXISTS failing_since`);
  }
}
