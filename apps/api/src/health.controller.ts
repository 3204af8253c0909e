import { Controller, Get, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { RedisConnection } from '@leadflow/shared-platform';

/**
 * `GET /health` (operator-api › Readiness): 200 `{ status: "ok" }` when PostgreSQL and Redis answer, else 503.
 * `GET /health/live` (liveness, issue 17): 200 `{ status: "ok" }` as long as the process answers; no dependency checked.
 */
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly redis: RedisConnection,
  ) {}

  /** Liveness: the process serves requests; PostgreSQL and Redis are not consulted (an outage must not get it restarted). */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get()
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const within = <T>(work: Promise<T>) =>
      Promise.race([work.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref())]).catch(() => false);
    const [postgres, redis] = await Promise.all([within(this.db.query('SELECT 1')), within(this.redis.client.ping())]);
    if (postgres && redis) return { status: 'ok' };
    void reply.status(503);
    return { status: 'unavailable', checks: { postgres: postgres ? 'ok' : 'down', redis: redis ? 'ok' : 'down' } };
  }
}
