import { request } from 'node:http';
import { INestApplicationContext } from '@nestjs/common';
// The api app shares the budget under test (its /metrics) on the same services.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TestApi } from '../../api/test/support/test-api';
import { createWorker } from '../src/bootstrap';
import { WorkerMetricsServer } from '../src/worker-metrics';

/**
 * The worker's `GET /metrics` limits wrong METRICS_TOKENs like the api's and the operator token (10 per client
 * address and 10 minutes, then 429 `rate_limit_exceeded` `brute_force` in the JSON error envelope, the right
 * token included), in ONE budget with the api's /metrics (the counter `metrics_failures` in Redis), on the real
 * worker, api, PostgreSQL and Redis. The worker counts by socket address: every scrape here comes from 127.0.0.1.
 */
const TOKEN = 'worker-metrics-limit-token';

function get(port: number, token?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const req = request({ host: '127.0.0.1', port, path: '/metrics', method: 'GET', headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('worker: METRICS_TOKEN failed attempts are limited like the operator token, in one budget with the api', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let port: number;

  beforeAll(async () => {
    api = await TestApi.start({ METRICS_TOKEN: TOKEN });
    worker = await createWorker(api.services.config({ WORKER_METRICS_PORT: '0', METRICS_TOKEN: TOKEN, HOST: '127.0.0.1' }), api.clock);
    port = worker.get(WorkerMetricsServer).port!;
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('right tokens are never counted; 10 wrong ones shared between the api and the worker answer 401, the 11th 429 brute_force, then the right token too', async () => {
    for (let scrape = 1; scrape <= 20; scrape += 1) expect((await get(port, TOKEN)).status).toBe(200);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const refused = attempt % 2 === 0 ? await get(port, 'wrong') : await api.request({ path: '/metrics', token: 'wrong', remoteAddress: '127.0.0.1' });
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    }

    const blocked = await get(port, 'wrong');
    expect(blocked.status).toBe(429);
    expect(blocked.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(blocked.body) as { details: { retry_after_seconds: number } };
    expect(body).toEqual({
      code: 'rate_limit_exceeded',
      message: 'Too many failed authentication attempts from this address.',
      details: { limit_type: 'brute_force', retry_after_seconds: expect.any(Number) },
      type: expect.any(String),
      doc_url: expect.stringContaining('#rate_limit_exceeded'),
      request_id: expect.any(String),
    });
    expect(body.details.retry_after_seconds).toBeGreaterThan(0);
    expect(body.details.retry_after_seconds).toBeLessThanOrEqual(600);
    expect(blocked.headers['retry-after']).toBe(String(body.details.retry_after_seconds));

    const right = await get(port, TOKEN);
    expect(right.status).toBe(429);
    expect(right.body).not.toContain('leadflow_');
    expect((await api.request({ path: '/metrics', token: TOKEN, remoteAddress: '127.0.0.1' })).body).toMatchObject({ code: 'rate_limit_exceeded', details: { limit_type: 'brute_force' } });
    expect((await api.request({ path: '/metrics', token: TOKEN, remoteAddress: '198.51.100.50' })).status).toBe(200);
  });
});
