import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema `usage`: `hour_buckets`, one key's usage in one UTC hour, recomputed by the aggregation job
 * from the live Redis counters (day buckets are rolled up from these at query time).
 */
export class UsageInit1767000000300 implements MigrationInterface {
  name = 'UsageInit1767000000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS usage`);
    await queryRunner.query(`
      CREATE TABLE usage.hour_buckets (
        account_id uuid NOT NULL,
        api_key_id uuid NOT NULL,
        bucket_start timestamptz NOT NULL CHECK (date_trunc('hour', bucket_start AT TIME ZONE 'UTC') = bucket_start AT TIME ZONE 'UTC'),
        request_count int NOT NULL CHECK (request_count >= 0),
        status_2xx int NOT NULL CHECK (status_2xx >= 0),
        status_4xx int NOT NULL CHECK (status_4xx >= 0),
        status_5xx int NOT NULL CHECK (status_5xx >= 0),
        rate_limited_count int NOT NULL CHECK (rate_limited_count >= 0),
        status_unknown int NOT NULL CHECK (status_unknown >= 0),
        latency_p50_ms double precision NOT NULL,
        latency_p95_ms double precision NOT NULL,
        latency_p99_ms double precision NOT NULL,
        latency_histogram jsonb NOT NULL DEFAULT '{}'::jsonb,
        closed boolean NOT NULL DEFAULT false,
        aggregated_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, api_key_id, bucket_start),
        CONSTRAINT hour_buckets_families_sum CHECK (
          request_count = status_2xx + status_4xx + status_5xx + rate_limited_count + status_unknown)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP SCHEMA usage CASCADE`);
  }
}
