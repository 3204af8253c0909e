import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, HealthIndicatorFunction } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { ReadReplicaRouter } from '@leadflow/shared-platform';
import { ServiceHealthIndicators } from './health.indicators';

type CheckState = 'ok' | 'down';

/**
 * The api's probes, checked by @nestjs/terminus indicators (ServiceHealthIndicators) but answered in the
 * operator contract's shape, not terminus' `{ status, info, error, details }` (operator-api › Readiness):
 * - `GET /health` (readiness): 200 `{ "status": "ok" }` when PostgreSQL and Redis answer, else 503
 *   `{ "status": "unavailable", "checks": { "postgres": "ok"|"down", "redis": "ok"|"down" } }`;
 * - `GET /health/live` (liveness, issue 17): 200 `{ "status": "ok" }` as long as the process answers; nothing consulted;
 * - `GET /health/ready` (issue 14, item 7): readiness plus the outbox backlog, always with its checks:
 *   `{ "status": "ok"|"unavailable", "checks": { "postgres", "redis", "quota_store", "outbox" }, "outbox": { "backlog", "oldest_age_seconds" } | null }`,
 *   200 when PostgreSQL answers, Redis takes a keyed write (every master on a cluster) and the quota store
 *   counts in Redis, else 503 naming the failing check (`quota_store` down: limits counted in process,
 *   docs/adr/0006); the backlog is reported, never judged; with read replicas, `read_replicas` reports them
 *   (degraded, never unready: the primary serves their reads, docs/adr/0007).
 * No authentication, outside the quota.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: ServiceHealthIndicators,
    private readonly readReplicas: ReadReplicaRouter,
  ) {}

  /** Liveness: the process serves requests; PostgreSQL and Redis are not consulted (an outage must not get it restarted). */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get()
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const result = await this.check([() => this.indicators.postgres(), () => this.indicators.redis()]);
    if (result.status === 'ok') return { status: 'ok' };
    void reply.status(503);
    return { status: 'unavailable', checks: { postgres: stateOf(result, 'postgres'), redis: stateOf(result, 'redis') } };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const result = await this.check([
      () => this.indicators.postgres(),
      () => this.indicators.redis(),
      () => this.indicators.quotaStore(),
      () => this.indicators.outbox(),
    ]);
    const checks = {
      postgres: stateOf(result, 'postgres'),
      redis: stateOf(result, 'redis'),
      quota_store: stateOf(result, 'quota_store'),
      outbox: stateOf(result, 'outbox'),
    };
    const outbox = result.details.outbox as { status: string; backlog?: number; oldest_age_seconds?: number } | undefined;
    const ok = checks.postgres === 'ok' && checks.redis === 'ok' && checks.quota_store === 'ok';
    if (!ok) void reply.status(503);
    return {
      status: ok ? 'ok' : 'unavailable',
      checks,
      outbox: checks.outbox === 'ok' ? { backlog: outbox?.backlog ?? 0, oldest_age_seconds: outbox?.oldest_age_seconds ?? 0 } : null,
      ...this.readReplicaReport(),
    };
  }

  /**
   * With DATABASE_READ_URLS set (docs/adr/0007): `read_replicas` `{ status: 'ok'|'degraded', replicas: [{ replica,
   * state: 'ok'|'lagging'|'down', lag_ms, error? }] }`, degraded when one does not serve. Never makes the api
   * unready: the primary serves the reads of a replica that is down or lagging. Nothing when unset.
   */
  private readReplicaReport(): { read_replicas?: { status: 'ok' | 'degraded'; replicas: ReturnType<ReadReplicaRouter['report']> } } {
    if (!this.readReplicas.enabled) return {};
    const replicas = this.readReplicas.report();
    return { read_replicas: { status: replicas.every((replica) => replica.state === 'ok') ? 'ok' : 'degraded', replicas } };
  }

  /** terminus' check, its 503 (a ServiceUnavailableException carrying the result) turned back into the result. */
  private async check(indicators: HealthIndicatorFunction[]): Promise<HealthCheckResult> {
    try {
      return await this.health.check(indicators);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) return error.getResponse() as HealthCheckResult;
      throw error;
    }
  }
}

function stateOf(result: HealthCheckResult, key: string): CheckState {
  return result.details[key]?.status === 'up' ? 'ok' : 'down';
}
