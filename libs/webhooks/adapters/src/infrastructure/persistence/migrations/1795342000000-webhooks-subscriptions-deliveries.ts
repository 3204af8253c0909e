import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook subscriptions, deliveries (the source of truth of the delivery engine: BullMQ jobs are only
 * wake-ups), their attempts, and the event samples recorded for `GET /v1/webhook-events`.
 * Every index leads with `account_id`.
 */
export class WebhooksSubscriptionsDeliveries1795342000000 implements MigrationInterface {
  name = 'WebhooksSubscriptionsDeliveries1795342000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhooks.subscriptions (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        api_key_id uuid NOT NULL,
        url text NOT NULL,
        all_events boolean NOT NULL,
        events text[] NOT NULL,
        secret_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX subscriptions_account_key_idx ON webhooks.subscriptions (account_id, api_key_id, created_at DESC, id DESC)`);
    await queryRunner.query(`
      CREATE TABLE webhooks.deliveries (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        subscription_id uuid NOT NULL,
        event_id uuid NOT NULL,
        event text NOT NULL,
        contact_id uuid NULL,
        body jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'retrying', 'succeeded', 'failed')),
        attempt integer NOT NULL DEFAULT 0,
        response_status integer NULL,
        last_error text NULL,
        next_attempt_at timestamptz NULL,
        locked_until timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT deliveries_event_subscription_key UNIQUE (account_id, event_id, subscription_id)
      )`);
    await queryRunner.query(`CREATE INDEX deliveries_account_created_idx ON webhooks.deliveries (account_id, created_at DESC, id DESC)`);
    // Small partial index (only deliveries still in flight) scanned whole by the sweeper.
    await queryRunner.query(
      `CREATE INDEX deliveries_due_idx ON webhooks.deliveries (account_id, next_attempt_at) WHERE status IN ('pending', 'retrying')`,
    );
    await queryRunner.query(`
      CREATE TABLE webhooks.delivery_attempts (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL,
        delivery_id uuid NOT NULL REFERENCES webhooks.deliveries (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        status text NOT NULL,
        response_status integer NULL,
        error text NULL,
        duration_ms integer NOT NULL,
        next_attempt_at timestamptz NULL,
        attempted_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX delivery_attempts_account_delivery_idx ON webhooks.delivery_attempts (account_id, delivery_id, attempt)`);
    await queryRunner.query(`
      CREATE TABLE webhooks.event_samples (
        event_id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        event text NOT NULL,
        body jsonb NOT NULL,
        occurred_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX event_samples_account_occurred_idx ON webhooks.event_samples (account_id, occurred_at DESC, event_id DESC)`);
    await queryRunner.query(`CREATE INDEX event_samples_account_event_idx ON webhooks.event_samples (account_id, event, occurred_at DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS webhooks.event_samples`);
    await queryRunner.query(`DROP TABLE IF EXISTS webhooks.delivery_attempts`);
    await queryRunner.query(`DROP TABLE IF EXISTS webhooks.deliveries`);
    await queryRunner.query(`DROP TABLE IF EXISTS webhooks.subscriptions`);
  }
}
