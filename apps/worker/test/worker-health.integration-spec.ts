import { INestApplicationContext } from '@nestjs/common';
import { RedisConnection } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { createWorker } from '../src/bootstrap';
import { WorkerHealthServer } from '../src/worker-health';

/**
 * Worker probes (issue 17, item 2) on WORKER_HEALTH_PORT: `/health/live` (liveness: the process answers),
 * `/health` (readiness: PostgreSQL and Redis answer, else 503 with each state); no listener when unset.
 * Real PostgreSQL and Redis.
 */
describe('Worker probes on WORKER_HEALTH_PORT', () => {
  let services: TestServices;
  let worker: INestApplicationContext;
  let base: string;

  beforeAll(async () => {
    services = await createTestServices();
    worker = await createWorker(services.config({ WORKER_HEALTH_PORT: '0', HOST: '127.0.0.1' }));
    base = `http://127.0.0.1:${worker.get(WorkerHealthServer).port}`;
  });

  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    await services?.dispose();
  });

  it('GET /health/live answers 200 {status:"ok"}', async () => {
    const response = await fetch(`${base}/health/live`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('GET /health (readiness) answers 200 {status:"ok"} while PostgreSQL and Redis answer', async () => {
    const response = await fetch(`${base}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('an unknown path answers 404, another method 405', async () => {
    expect((await fetch(`${base}/metrics-nope`)).status).toBe(404);
    const post = await fetch(`${base}/health`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('no listener when WORKER_HEALTH_PORT is unset or empty', async () => {
    const other = await createWorker(services.config({ WORKER_HEALTH_PORT: '' }));
    try {
      expect(other.get(WorkerHealthServer).port).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('with Redis gone, /health answers 503 redis down while /health/live still answers 200', async () => {
    worker.get(RedisConnection).client.disconnect();
    const readiness = await fetch(`${base}/health`);
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toEqual({ status: 'unavailable', checks: { postgres: 'ok', redis: 'down' } });
    const liveness = await fetch(`${base}/health/live`);
    expect(liveness.status).toBe(200);
  });
});
