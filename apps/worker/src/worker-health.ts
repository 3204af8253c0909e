import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig, RedisConnection } from '@leadflow/shared-platform';
import { NodeHttpListener } from './node-http-listener';

/** How long a readiness check waits for PostgreSQL or Redis before calling it down (ms). */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Worker probes (issue 17, item 2) on `WORKER_HEALTH_PORT` (unset: no listener), on HOST, plain node:http:
 * - `GET /health/live`: 200 `{ "status": "ok" }` while the process answers (no dependency consulted);
 * - `GET /health`: readiness, 200 `{ "status": "ok" }` when PostgreSQL and Redis answer within 2 s, else
 *   503 `{ "status": "unavailable", "checks": { "postgres": "ok"|"down", "redis": "ok"|"down" } }`
 *   (the shape of the api's `GET /health`);
 * - anything else: 404 `{ "status": "not_found" }`; a method other than GET or HEAD: 405.
 * Listens once the worker is bootstrapped; closed first on shutdown.
 */
@Injectable()
export class WorkerHealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WorkerHealth');
  private readonly listener = new NodeHttpListener();

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    private readonly redis: RedisConnection,
  ) {}

  /** The listening port (differs from WORKER_HEALTH_PORT only when that is 0), or null when not listening. */
  get port(): number | null {
    return this.listener.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.workerHealthPort === null) return;
    await this.listener.listen(this.config.workerHealthPort, this.config.host, (request, response) => this.handle(request, response));
    this.logger.log({ port: this.port, host: this.config.host }, 'Worker probes listening');
  }

  onApplicationShutdown(): Promise<void> {
    return this.listener.close();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
      response.end(request.method === 'HEAD' ? undefined : JSON.stringify(body));
    };
    if (path !== '/health' && path !== '/health/live') return send(404, { status: 'not_found' });
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, { status: 'method_not_allowed' }, { allow: 'GET, HEAD' });
    if (path === '/health/live') return send(200, { status: 'ok' });
    const [postgres, redis] = await Promise.all([within(this.db.query('SELECT 1')), within(this.redis.client.ping())]);
    if (postgres && redis) return send(200, { status: 'ok' });
    send(503, { status: 'unavailable', checks: { postgres: postgres ? 'ok' : 'down', redis: redis ? 'ok' : 'down' } });
  }
}

/** True when `work` settles successfully within CHECK_TIMEOUT_MS. */
function within(work: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    work.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CHECK_TIMEOUT_MS).unref()),
  ]).catch(() => false);
}

/** The worker's probe listener (imported by `WorkerModule`). */
@Module({ providers: [WorkerHealthServer] })
export class WorkerHealthModule {}
