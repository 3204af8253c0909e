import { ChildProcess, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { AppConfig, bullConnection, consumerQueueName, EventInbox, INTEGRATION_EVENT_BATCH_JOB } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { createWorker } from '../src/bootstrap';

/**
 * A worker started while Redis is down (docs/adr/0004, seen in the fault suite: killed during a Redis
 * outage, its replacement sat idle up to 20 s after Redis was back, BullMQ's reconnection backoff). Its
 * bootstrap waits for Redis (the schedulers register their jobs); it must finish, and its queue workers
 * take jobs, within seconds of Redis answering, however long Redis was down. A Redis server of the test's
 * own (`redis-server` on a free port; the shared one is never touched).
 */

const OUTAGE_MS = 12_000;
/** Redis answering → worker ready (what `npm start` is told) and a job taken (ms). */
const READY_WITHIN_MS = 3000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts an empty `redis-server` on `port`; resolves once it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return child;
    if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Worker started while Redis is down', () => {
  let services: TestServices;
  let redis: ChildProcess | undefined;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    services = await createTestServices();
  });

  afterAll(async () => {
    await worker?.close().catch(() => undefined);
    redis?.kill('SIGKILL');
    await services?.dispose();
  });

  it(`becomes ready and takes jobs within ${READY_WITHIN_MS} ms of Redis answering after a ${OUTAGE_MS / 1000} s outage`, async () => {
    const port = await freePort();
    const config: AppConfig = services.config({ REDIS_URL: `redis://127.0.0.1:${port}${new URL(services.redisUrl).pathname}`, OUTBOX_RELAY_INTERVAL_MS: '50' });
    let readyAt = 0;
    const starting = createWorker(config).then((created) => {
      readyAt = Date.now();
      worker = created;
      return created;
    });
    starting.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS)); // the outage itself: nothing to poll
    expect(readyAt).toBe(0); // bootstrap waits for Redis

    redis = await startRedis(port);
    const back = Date.now();
    const app = await Promise.race([
      starting,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not ready ${READY_WITHIN_MS * 3} ms after Redis was back`)), READY_WITHIN_MS * 3)),
    ]);
    expect(readyAt - back).toBeLessThanOrEqual(READY_WITHIN_MS);

    // A batch job naming an unknown event: the webhooks consumer takes it (nothing to handle) and completes it.
    const queue = new Queue(consumerQueueName('webhooks'), { connection: bullConnection(config.redisUrl), prefix: `${config.redisPrefix}:bull` });
    try {
      const added = Date.now();
      const job = await queue.add(INTEGRATION_EVENT_BATCH_JOB, { events: [{ id: '00000000-0000-4000-8000-000000000001', type: 'lead_created' }] });
      for (;;) {
        const state = await job.getState();
        if (state === 'completed') break;
        if (Date.now() - added > READY_WITHIN_MS) throw new Error(`job still ${state} ${READY_WITHIN_MS} ms after it was added`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await app.get(EventInbox).recorded('webhooks', ['00000000-0000-4000-8000-000000000001'])).toEqual(new Set());
    } finally {
      await queue.close();
    }
  }, 60_000);
});
