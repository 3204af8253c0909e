import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { FixedClock } from '@leadflow/shared-kernel';
import { bullConnection, OutboxRelay } from '@leadflow/shared-platform';
// The api app drives the worker under test (provisioning, an email queued through its command) on the same services.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { messagingBlueprint, queueEmail } from '../../api/test/support/messaging-fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { sampleValue, samplesOf } from '../../api/test/support/prometheus-text';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ProvisionedAccount, TestApi } from '../../api/test/support/test-api';
import { createWorker } from '../src/bootstrap';
import { WorkerMetricsServer } from '../src/worker-metrics';

/**
 * The worker's `GET /metrics` on WORKER_METRICS_PORT (issue 17, item 1), in the real worker on real PostgreSQL
 * and Redis, fed by the real api app: METRICS_TOKEN enforced; queue depth per BullMQ queue and state, read from
 * Redis at scrape time; job outcome counters; outbox backlog and relay lag after inserting unrelayed events;
 * outgoing emails, webhook attempts and automation executions by status; Node's process metrics.
 */
const TOKEN = 'worker-metrics-token';

function get(port: number, path: string, options: { token?: string; method?: string } = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('worker: GET /metrics on WORKER_METRICS_PORT', () => {
  let api: TestApi;
  let worker: INestApplicationContext;
  let account: ProvisionedAccount;
  let port: number;
  let queue: Queue;
  const clock = new FixedClock(new Date('2026-11-20T12:00:00.000Z'));

  const scrape = async () => {
    const response = await get(port, '/metrics', { token: TOKEN });
    expect(response.status).toBe(200);
    return response.body;
  };
  const db = () => api.app.get(DataSource);

  beforeAll(async () => {
    api = await TestApi.start({}, clock);
    account = await api.provision(messagingBlueprint());
    worker = await createWorker(api.services.config({ WORKER_METRICS_PORT: '0', METRICS_TOKEN: TOKEN, HOST: '127.0.0.1', OUTBOX_RELAY_INTERVAL_MS: '20' }), clock);
    port = worker.get(WorkerMetricsServer).port!;
    const config = api.services.config();
    queue = new Queue('email-delivery', { connection: bullConnection(config.redisUrl), prefix: `${config.redisPrefix}:bull` });
  });

  afterAll(async () => {
    await queue?.close();
    await worker?.close();
    await api?.close();
  });

  it('METRICS_TOKEN: 401 without the bearer token or with a wrong one, 200 with it; 404 elsewhere, 405 for POST', async () => {
    const missing = await get(port, '/metrics');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(missing.body).not.toContain('leadflow_');
    expect((await get(port, '/metrics', { token: `${TOKEN}-wrong` })).status).toBe(401);
    const allowed = await get(port, '/metrics', { token: TOKEN });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect((await get(port, '/health', { token: TOKEN })).status).toBe(404);
    expect((await get(port, '/metrics', { token: TOKEN, method: 'POST' })).status).toBe(405);
  });

  it('queue depth per BullMQ queue and state, read at scrape time: a delayed job shows in email-delivery, every queue has its series', async () => {
    const job = await queue.add('metrics-probe', { probe: true }, { delay: 3_600_000, jobId: `metrics-probe-${randomUUID()}` });
    const text = await scrape();
    expect(sampleValue(text, 'leadflow_queue_jobs', { queue: 'email-delivery', state: 'delayed' })).toBe(1);
    for (const state of ['waiting', 'prioritized', 'active', 'failed']) expect(sampleValue(text, 'leadflow_queue_jobs', { queue: 'email-delivery', state })).toBe(0);
    const queues = new Set(samplesOf(text, 'leadflow_queue_jobs').map((sample) => sample.labels.queue));
    for (const name of ['email-delivery', 'webhook-delivery', 'automation-executions']) expect(queues).toContain(name);
    await job.remove();
    expect(sampleValue(await scrape(), 'leadflow_queue_jobs', { queue: 'email-delivery', state: 'delayed' })).toBe(0);
  });

  it('an email queued through the api is delivered by the worker: completed job counters move, outgoing emails show it sent', async () => {
    const completed = (text: string, name: string) => sampleValue(text, 'leadflow_queue_jobs_completed_total', { queue: name }) ?? 0;
    const before = await scrape();
    expect(sampleValue(before, 'leadflow_outgoing_emails', { status: 'sent' })).toBe(0);
    await queueEmail(api, account);
    const after = await waitFor(scrape, (text) => sampleValue(text, 'leadflow_outgoing_emails', { status: 'sent' }) === 1, 'the email sent');
    for (const status of ['queued', 'sending', 'failed']) expect(sampleValue(after, 'leadflow_outgoing_emails', { status })).toBe(0);
    const delivered = await waitFor(scrape, (text) => completed(text, 'email-delivery') > completed(before, 'email-delivery'), 'the delivery job counted');
    expect(completed(delivered, 'email-delivery') - completed(before, 'email-delivery')).toBe(1);
    expect(sampleValue(delivered, 'leadflow_queue_jobs_failed_total', { queue: 'email-delivery' })).toBe(0);
  });

  it('outbox backlog and relay lag: unrelayed events inserted while the relay is stopped, drained once it runs again', async () => {
    const relay = worker.get(OutboxRelay);
    await relay.stop();
    await waitFor(scrape, (text) => sampleValue(text, 'leadflow_outbox_backlog') === 0, 'an empty outbox');
    for (const secondsAgo of [120, 45, 0]) {
      await db().query(
        `INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at) VALUES ($1, $2, 'metrics_probe', '{}', '{"type":"system"}', $3)`,
        [randomUUID(), account.account_id, new Date(clock.now().getTime() - secondsAgo * 1000)],
      );
    }
    const text = await scrape();
    expect(sampleValue(text, 'leadflow_outbox_backlog')).toBe(3);
    expect(sampleValue(text, 'leadflow_outbox_oldest_unrelayed_age_seconds')).toBe(120);
    relay.start();
    const drained = await waitFor(scrape, (value) => sampleValue(value, 'leadflow_outbox_backlog') === 0, 'the relay draining the outbox');
    expect(sampleValue(drained, 'leadflow_outbox_oldest_unrelayed_age_seconds')).toBe(0);
  });

  it('webhook attempts by outcome and automation executions by status, every known value present', async () => {
    const deliveryId = randomUUID();
    const now = clock.now();
    await db().query(
      `INSERT INTO webhooks.deliveries (id, account_id, subscription_id, event_id, event, body, status, attempt, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'lead_created', '{}', 'retrying', 2, $5, $5)`,
      [deliveryId, account.account_id, randomUUID(), randomUUID(), now],
    );
    for (const [attempt, status] of [[1, 'retrying'], [2, 'retrying'], [3, 'succeeded']] as const) {
      await db().query(
        `INSERT INTO webhooks.delivery_attempts (account_id, delivery_id, attempt, status, response_status, duration_ms, attempted_at) VALUES ($1, $2, $3, $4, 500, 12, $5)`,
        [account.account_id, deliveryId, attempt, status, now],
      );
    }
    const text = await scrape();
    expect(sampleValue(text, 'leadflow_webhook_attempts', { outcome: 'retrying' })).toBe(2);
    expect(sampleValue(text, 'leadflow_webhook_attempts', { outcome: 'succeeded' })).toBe(1);
    expect(sampleValue(text, 'leadflow_webhook_attempts', { outcome: 'failed' })).toBe(0);
    for (const status of ['pending', 'running', 'waiting', 'completed', 'failed']) expect(sampleValue(text, 'leadflow_automation_executions', { status })).toBe(0);
    expect(samplesOf(text, 'leadflow_metrics_collect_errors_total')).toEqual([]);
  });

  it("exposes Node's default process metrics", async () => {
    const text = await scrape();
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) expect(samplesOf(text, name).length).toBeGreaterThan(0);
  });
});
