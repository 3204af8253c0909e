import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@leadflow/shared-kernel';
import { readOutboxBacklog, RedisConnection } from '@leadflow/shared-platform';

/** How long one dependency check may take before it counts as down (ms), as before terminus. */
export const HEALTH_CHECK_TIMEOUT_MS = 2000;

/**
 * The api's health indicators, built on @nestjs/terminus (issue 14, item 7): terminus' TypeORM ping for
 * PostgreSQL (`SELECT 1`), a Redis `PING` and the outbox backlog through its HealthIndicatorService, each
 * down after {@link HEALTH_CHECK_TIMEOUT_MS} or on any error. Results are terminus' `{ <key>: { status: 'up'|'down', … } }`.
 */
@Injectable()
export class ServiceHealthIndicators {
  constructor(
    private readonly typeorm: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly redisConnection: RedisConnection,
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /** `postgres`: up when `SELECT 1` answers. */
  postgres() {
    return this.typeorm.pingCheck('postgres').withTimeout(HEALTH_CHECK_TIMEOUT_MS);
  }

  /** `redis`: up when `PING` answers. */
  redis() {
    return this.indicators
      .check('redis')
      .attempt(async () => {
        await this.redisConnection.client.ping();
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
