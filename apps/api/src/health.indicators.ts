import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@leadflow/shared-kernel';
import { checkRedisWritable, QuotaStoreState, RateLimits, readOutboxBacklog, RedisConnection } from '@leadflow/shared-platform';

/** How long one dependency check may take before it counts as down (ms), as before terminus. */
export const HEALTH_CHECK_TIMEOUT_MS = 2000;

/** The parameterised statement of the PostgreSQL check: run like the request paths' statements (prepared when they are). */
export const POSTGRES_CHECK_STATEMENT = 'SELECT $1::int AS answer';

/**
 * The api's health indicators, built on @nestjs/terminus (issue 14, item 7): PostgreSQL (a parameterised
 * statement through the pool), a Redis `PING` and the outbox backlog through its HealthIndicatorService, each
 * down after {@link HEALTH_CHECK_TIMEOUT_MS} or on any error. Results are terminus' `{ <key>: { status: 'up'|'down', … } }`.
 */
@Injectable()
export class ServiceHealthIndicators {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly redisConnection: RedisConnection,
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly rateLimits: RateLimits,
    private readonly quotaStoreState: QuotaStoreState,
  ) {}

  /**
   * `postgres`: up when {@link POSTGRES_CHECK_STATEMENT} answers its own parameter twice on one connection of
   * the pool, in two transactions: the path every request takes (a named prepared statement when prepared
   * statements are on, parsed then only bound), so a pooler that loses or mixes up the pool's prepared
   * statements (`prepared statement "lf1" already exists`, 26000) is not reported ready. A plain `SELECT 1`
   * (simple protocol) answered 200 through one while every capture failed.
   */
  postgres() {
    return this.indicators
      .check('postgres')
      .attempt(async () => {
        const runner = this.db.createQueryRunner();
        try {
          for (const value of [1, 2]) {
            const [row] = (await runner.query(POSTGRES_CHECK_STATEMENT, [value])) as { answer: number }[];
            if (row?.answer !== value) throw new Error(`the PostgreSQL check answered ${JSON.stringify(row)} for ${value}`);
          }
        } finally {
          await runner.release();
        }
      })
      .withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }

  /**
   * `redis`: up when a keyed write answers OK (checkRedisWritable: on a cluster, one key per master), with
   * `masters` written. A replica answering PING but refusing writes is down.
   */
  redis() {
    return this.indicators
      .check('redis')
      .attempt(async () => ({ masters: await checkRedisWritable(this.redisConnection) }))
      .withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }

  /**
   * `quota_store`: up while the limiters count in Redis. The check makes one limiter script call of its own
   * (RateLimits.probe, which also ends a fallback once Redis counts again, with no traffic needed); down with
   * `reason` and `since` while the limiters count in this process (QuotaStoreState).
   */
  quotaStore() {
    return this.indicators
      .check('quota_store')
      .attempt(async () => {
        await this.rateLimits.probe();
        const state = this.quotaStoreState.snapshot();
        if (state.mode !== 'redis') throw new Error(`limits counted in process since ${new Date(state.since).toISOString()}: ${state.reason ?? 'unknown'}`);
        return { mode: state.mode };
      })
      .withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }

  /**
   * `outbox`: up with `backlog` (unrelayed `platform.outbox` rows) and `oldest_age_seconds` (age of the oldest,
   * 0 when none) once PostgreSQL answers; the backlog's size never makes it down (it is reported, not judged).
   */
  outbox() {
    return this.indicators
      .check('outbox')
      .attempt(async () => {
        const { backlog, oldestAgeSeconds } = await readOutboxBacklog(this.db, this.clock.now());
        return { backlog, oldest_age_seconds: Math.round(oldestAgeSeconds * 1000) / 1000 };
      })
      .withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }
}
