import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { INestApplicationContext, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { FixedClock, IntegrationEvent, SYSTEM_ACTOR } from '@leadflow/shared-kernel';
import {
  AppConfig,
  bullConnection,
  consumerJobId,
  consumerQueueName,
  dataSourceOptions,
  INTEGRATION_EVENTS_QUEUE,
  OutboxRecord,
  OutboxRelay,
  OutboxRelayModule,
  OutboxSubscriptionModule,
  OutboxWriter,
  PlatformModule,
  QueueModule,
  TransactionHost,
} from '@leadflow/shared-platform';
import { createTestServices, redisProxy, TestServices } from '@leadflow/shared-testing';

/** ARCHITECTURE › Writes, events and the worker: the worker's outbox relay (libs/shared/platform/src/outbox) against real PostgreSQL and Redis. */

const ACCOUNT_ID = '5f0c7c1e-3c1f-4a57-9d2b-0d6f2f2b8a11';

function event(type = 'lead_created', payload: Record<string, unknown> = {}): IntegrationEvent {
  return { id: randomUUID(), type, accountId: ACCOUNT_ID, occurredAt: new Date('2026-11-02T15:04:05.123Z'), payload, actor: SYSTEM_ACTOR };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('Outbox relay', () => {
  let services: TestServices;
  let config: AppConfig;
  let db: DataSource;
  let transactions: TransactionHost;
  let outbox: OutboxWriter;
  let queue: Queue;
  const clock = new FixedClock(new Date('2026-11-02T15:05:00.000Z'));
  const relays: OutboxRelay[] = [];

  const relay = (settings: ConstructorParameters<typeof OutboxRelay>[3] = {}, overrides: Record<string, string> = {}) => {
    const created = new OutboxRelay(db, services.config(overrides), clock, { autoStart: false, enqueueTimeoutMs: 1000, ...settings });
    relays.push(created);
    return created;
  };
  const row = async (id: string) =>
    (await db.query(`SELECT relayed_at, relay_attempts FROM platform.outbox WHERE id = $1`, [id]))[0] as
      | { relayed_at: Date | null; relay_attempts: number }
      | undefined;
  const commit = (events: IntegrationEvent[]) => transactions.run(() => outbox.append(events));

  beforeAll(async () => {
    Logger.overrideLogger(false); // the relay's warnings about the unreachable Redis are expected here
    services = await createTestServices();
    config = services.config();
    db = new DataSource(dataSourceOptions(services.databaseUrl, [], [OutboxRecord]));
    await db.initialize();
    transactions = new TransactionHost(db);
    outbox = new OutboxWriter(transactions);
    queue = new Queue(INTEGRATION_EVENTS_QUEUE, { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` });
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((created) => created.stop()));
    await db.query('TRUNCATE platform.outbox');
    await queue.obliterate({ force: true });
  });

  afterAll(async () => {
    await queue.close();
    await db.destroy();
    await services.dispose();
  });

  it('never relays an event whose transaction rolled back', async () => {
    const rolledBack = event();
    await expect(
      transactions.run(async () => {
        await outbox.append([rolledBack]);
        throw new Error('business rule refused the change');
      }),
    ).rejects.toThrow('business rule refused the change');

    const batch = await relay().relayBatch();

    expect(batch).toEqual({ relayed: [], failed: [] });
    expect(await row(rolledBack.id)).toBeUndefined();
    expect(await queue.getJob(rolledBack.id)).toBeUndefined();
    expect(await queue.count()).toBe(0);
  });

  it('relays a committed event once, as a job whose id is the event id, and marks the row', async () => {
    const committed = event('lead_created', { contact_id: 'c-1', source: 'website' });
    await commit([committed]);
    const subject = relay();

    const first = await subject.relayBatch();
    const second = await subject.relayBatch();

    expect(first).toEqual({ relayed: [committed.id], failed: [] });
    expect(second).toEqual({ relayed: [], failed: [] });
    expect(await row(committed.id)).toEqual({ relayed_at: clock.now(), relay_attempts: 1 });
    const job = await queue.getJob(committed.id);
    expect(job?.name).toBe('lead_created');
    expect(job?.data).toEqual({
      id: committed.id,
      sequence: expect.stringMatching(/^\d+$/),
      type: 'lead_created',
      accountId: ACCOUNT_ID,
      occurredAt: '2026-11-02T15:04:05.123Z',
      payload: { contact_id: 'c-1', source: 'website' },
      actor: SYSTEM_ACTOR,
    });
    expect(await queue.count()).toBe(1);
  });

  it('relays rows in the order they were written, a batch at a time', async () => {
    const written = Array.from({ length: 5 }, () => event());
    for (const item of written) await commit([item]);
    const subject = relay({ batchSize: 2 });

    const batches = [await subject.relayBatch(), await subject.relayBatch(), await subject.relayBatch(), await subject.relayBatch()];

    expect(batches.map((batch) => batch.relayed)).toEqual([
      [written[0].id, written[1].id],
      [written[2].id, written[3].id],
      [written[4].id],
      [],
    ]);
  });

  it('skips rows another relay holds locked instead of waiting for them or taking them', async () => {
    const written = Array.from({ length: 4 }, () => event());
    await commit(written);
    const holder = db.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    try {
      await holder.query(`SELECT id FROM platform.outbox WHERE relayed_at IS NULL ORDER BY sequence LIMIT 2 FOR UPDATE SKIP LOCKED`);

      const batch = await relay().relayBatch();

      expect(batch.relayed.sort()).toEqual([written[2].id, written[3].id].sort());
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    expect((await relay().relayBatch()).relayed.sort()).toEqual([written[0].id, written[1].id].sort());
  });

  it('never enqueues the same row twice when two relays run concurrently', async () => {
    const written = Array.from({ length: 240 }, () => event());
    for (let index = 0; index < written.length; index += 40) await commit(written.slice(index, index + 40));
    // Two relays with their own connection pools, as two worker processes would have.
    const otherDb = new DataSource(dataSourceOptions(services.databaseUrl, [], [OutboxRecord]));
    await otherDb.initialize();
    try {
      const first = relay({ batchSize: 7 });
      const second = new OutboxRelay(otherDb, config, clock, { autoStart: false, batchSize: 7, enqueueTimeoutMs: 1000 });
      relays.push(second);
      const drain = async (subject: OutboxRelay) => {
        const ids: string[] = [];
        for (let batch = await subject.relayBatch(); batch.relayed.length > 0; batch = await subject.relayBatch()) ids.push(...batch.relayed);
        return ids;
      };

      const [byFirst, bySecond] = await Promise.all([drain(first), drain(second)]);

      const all = [...byFirst, ...bySecond];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual(written.map((item) => item.id).sort());
      expect(byFirst.length).toBeGreaterThan(0);
      expect(bySecond.length).toBeGreaterThan(0);
      expect(await queue.count()).toBe(240);
      const attempts = await db.query(`SELECT DISTINCT relay_attempts FROM platform.outbox`);
      expect(attempts).toEqual([{ relay_attempts: 1 }]);
    } finally {
      await otherDb.destroy();
    }
  });

  it('keeps the row when Redis is unreachable, retries with backoff, and relays it once Redis is back', async () => {
    const port = await closedPort();
    const pending = event('lead_created', { contact_id: 'c-2' });
    await commit([pending]);
    const subject = relay({ intervalMs: 50, maxBackoffMs: 300, enqueueTimeoutMs: 300 }, { REDIS_URL: `redis://127.0.0.1:${port}/0` });

    const refused = await subject.relayBatch();

    expect(refused.relayed).toEqual([]);
    expect(refused.failed).toEqual([pending.id]);
    expect(await row(pending.id)).toEqual({ relayed_at: null, relay_attempts: 1 });

    subject.start();
    await waitFor(async () => ((await row(pending.id))?.relay_attempts ?? 0) >= 4, 10_000, 'retries');
    expect((await row(pending.id))?.relayed_at).toBeNull();
    expect(await queue.getJob(pending.id)).toBeUndefined();

    const proxy = await redisProxy(services.redisUrl, port);
    try {
      await waitFor(async () => (await row(pending.id))?.relayed_at != null, 20_000, 'relay after Redis came back');
      expect((await queue.getJob(pending.id))?.data).toMatchObject({ id: pending.id, payload: { contact_id: 'c-2' } });
      expect(await queue.count()).toBe(1);
    } finally {
      await subject.stop();
      await proxy.close();
    }
  });

  it('stops polling on stop() and leaves later rows for the next relay', async () => {
    const subject = relay({ intervalMs: 20 });
    subject.start();
    const early = event();
    await commit([early]);
    await waitFor(async () => (await row(early.id))?.relayed_at != null, 5000, 'relay while running');

    await subject.stop();
    const late = event();
    await commit([late]);
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(subject.isRunning).toBe(false);
    expect(await row(late.id)).toEqual({ relayed_at: null, relay_attempts: 0 });
  });
});

@Module({
  imports: [
    OutboxSubscriptionModule.forConsumer({ consumer: 'lead-follow-up', events: ['lead_created'] }),
    OutboxSubscriptionModule.forConsumer({ consumer: 'audit-trail', events: '*' }),
  ],
})
class SubscribersModule {}

describe('Outbox relay in the worker: fan-out to subscribed consumers', () => {
  let services: TestServices;
  let app: INestApplicationContext;
  let transactions: TransactionHost;
  let outbox: OutboxWriter;
  const queues: Queue[] = [];
  const queueOf = (name: string) => {
    const created = new Queue(name, { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` });
    queues.push(created);
    return created;
  };

  beforeAll(async () => {
    services = await createTestServices();
    const config = services.config({ OUTBOX_RELAY_INTERVAL_MS: '25' });
    @Module({ imports: [PlatformModule.forRoot({ config }), QueueModule.forRoot(), OutboxRelayModule.forRoot(), SubscribersModule] })
    class WorkerUnderTest {}
    app = await NestFactory.createApplicationContext(WorkerUnderTest, { logger: false, abortOnError: false });
    await app.init();
    transactions = app.get(TransactionHost);
    outbox = app.get(OutboxWriter);
  });

  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await app?.close();
    await services.dispose();
  });

  it('adds each relayed event to the queue of every consumer subscribed to its type, job id <eventId>.<consumer>', async () => {
    const created = event('lead_created', { contact_id: 'c-3' });
    const won = event('deal_won', { deal_id: 'd-1' });
    await transactions.run(() => outbox.append([created, won]));
    const followUp = queueOf(consumerQueueName('lead-follow-up'));
    const audit = queueOf(consumerQueueName('audit-trail'));

    await waitFor(async () => (await audit.count()) === 2, 10_000, 'fan-out');

    expect((await followUp.getJobs(['waiting'])).map((job) => job.id)).toEqual([consumerJobId(created.id, 'lead-follow-up')]);
    expect((await audit.getJobs(['waiting'])).map((job) => job.id).sort()).toEqual(
      [consumerJobId(created.id, 'audit-trail'), consumerJobId(won.id, 'audit-trail')].sort(),
    );
    expect((await followUp.getJob(consumerJobId(created.id, 'lead-follow-up')))?.data).toMatchObject({
      id: created.id,
      type: 'lead_created',
      payload: { contact_id: 'c-3' },
    });
    const relayedRows = await app.get(DataSource).query(`SELECT count(*)::int AS n FROM platform.outbox WHERE relayed_at IS NOT NULL`);
    expect(relayedRows).toEqual([{ n: 2 }]);
  });
});
