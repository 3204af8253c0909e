import { RedisConnection } from '@leadflow/shared-platform';
import { TestApi } from './support/test-api';

/**
 * Probes (issue 17, item 2; operator description `/health`, `/health/live`): `GET /health` is readiness
 * (PostgreSQL and Redis answer, else 503 with the state of each), `GET /health/live` is liveness (the process
 * answers; no dependency consulted). Both: no authentication, outside the quota, no rate-limit headers.
 */
describe('Health probes: /health (readiness) and /health/live (liveness)', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.start();
  });

  afterAll(async () => {
    await api.app.close().catch(() => undefined);
    await api.services.dispose();
  });

  it('GET /health/live answers 200 {status:"ok"} without authentication, outside the quota', async () => {
    const response = await api.request({ path: '/health/live' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('GET /health answers 200 {status:"ok"} while PostgreSQL and Redis answer', async () => {
    const response = await api.request({ path: '/health' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('with Redis gone, /health (readiness) answers 503 redis down while /health/live (liveness) still answers 200', async () => {
    api.app.get(RedisConnection).client.disconnect();
    const readiness = await api.request({ path: '/health' });
    expect(readiness.status).toBe(503);
    expect(readiness.body).toEqual({ status: 'unavailable', checks: { postgres: 'ok', redis: 'down' } });
    const liveness = await api.request({ path: '/health/live' });
    expect(liveness.status).toBe(200);
    expect(liveness.body).toEqual({ status: 'ok' });
  });
});
