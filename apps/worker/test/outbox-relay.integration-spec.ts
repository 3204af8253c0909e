import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Processor } from '@nestjs/bullmq';
import { INestApplicationContext, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Job, Queue } from 'bullmq';
import IORedis from 'ioredis';
import { DataSource } from 'typeorm';
import { DomainError, FixedClock, IntegrationEvent, SYSTEM_ACTOR, SystemClock } from '@leadflow/shared-kernel';
import {
  AppConfig,
  bullConnection,
  consumerBatchJobId,
  consumerQueueName,
  dataSourceOptions,
  EventInbox,
  IntegrationEventBatchJob,
  IntegrationEventConsumer,
  IntegrationEventJob,
  IntegrationEventRef,
  OutboxReconciler,
  OutboxRecord,
  OutboxRelay,
  OutboxRelayModule,
  OutboxSubscription,
  OutboxSubscriptionModule,
  OutboxSubscriptions,
  OutboxWriter,
  PlatformModule,
  QueueModule,
  TransactionHost,
} from '@leadflow/shared-platform';
import { createTestServices, redisProxy, TestServices } from '@leadflow/shared-testing';

/**
 * ARCHITECTURE › Writes, events and the worker: the worker's outbox relay, the consumers' inbox and the
 * reconciler (libs/shared/platform/src/outbox) against real PostgreSQL and Redis (issue 11: one batch
 * job per consumer and relay pass; issue 12 item 2: an event counts as delivered once each consumer has
 * recorded it).
 */

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

/** The consumers of the first suites: one takes `lead_created` only, the other every type. */
const SUBSCRIPTIONS = OutboxSubscriptions.of([
  new OutboxSubscription({ consumer: 'lead-follow-up', events: ['lead_created'] }),
  new OutboxSubscription({ consumer: 'audit-trail', events: '*' }),
]);

/** The events every batch job waiting in `queue` names, in job order. */
async function queuedEvents(queue: Queue): Promise<IntegrationEventRef[]> {
  const jobs = (await queue.getJobs(['waiting'])) as Job<IntegrationEventBatchJob>[];
  return jobs.sort((a, b) => a.timestamp - b.timestamp).flatMap((job) => job.data.events);
}

describe('Outbox relay', () => {
  let services: TestServices;
  let config: AppConfig;
  let db: DataSource;
  let transactions: TransactionHost;
  let outbox: OutboxWriter;
  let queue: Queue;
  let followUp: Queue;
  const clock = new FixedClock(new Date('2026-11-02T15:05:00.000Z'));
  const relays: OutboxRelay[] = [];

  const relay = (settings: ConstructorParameters<typeof OutboxRelay>[4] = {}, overrides: Record<string, string> = {}) => {
    const created = new OutboxRelay(db, services.config(overrides), clock, SUBSCRIPTIONS, { autoStart: false, enqueueTimeoutMs: 1000, ...settings });
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
    queue = new Queue(consumerQueueName('audit-trail'), { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` });
    followUp = new Queue(consumerQueueName('lead-follow-up'), { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` });
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((created) => created.stop()));
    await db.query('TRUNCATE platform.outbox');
    await queue.obliterate({ force: true });
    await followUp.obliterate({ force: true });
  });

  afterAll(async () => {
    await queue.close();
    await followUp.close();
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
    expect(await queue.count()).toBe(0);
  });

  it('relays a committed event once, as a batch job in each subscribed consumer queue, and marks the row', async () => {
    const committed = event('lead_created', { contact_id: 'c-1', source: 'website' });
    await commit([committed]);
    const subject = relay();

    const first = await subject.relayBatch();
    const second = await subject.relayBatch();

    expect(first).toEqual({ relayed: [committed.id], failed: [] });
    expect(second).toEqual({ relayed: [], failed: [] });
    expect(await row(committed.id)).toEqual({ relayed_at: clock.now(), relay_attempts: 1 });
    const job = (await queue.getJob(consumerBatchJobId('audit-trail', [committed.id]))) as Job<IntegrationEventBatchJob> | undefined;
    expect(job?.name).toBe('events');
    expect(job?.data.events).toHaveLength(1);
    expect(job?.data.events[0]).toEqual({ id: committed.id, type: 'lead_created' }); // a reference: the row stays in PostgreSQL
    expect(await queue.count()).toBe(1);
    expect((await followUp.getJob(consumerBatchJobId('lead-follow-up', [committed.id])))?.data).toEqual(job?.data);
  });

  it('adds one job per consumer and pass, holding only the types the consumer subscribes to, in outbox order', async () => {
    const created = event('lead_created', { contact_id: 'c-3' });
    const won = event('deal_won', { deal_id: 'd-1' });
    const second = event('lead_created', { contact_id: 'c-4' });
    await commit([created, won, second]);

    await relay().relayBatch();

    expect(await queue.count()).toBe(1);
    expect(await followUp.count()).toBe(1);
    expect((await queuedEvents(queue)).map((item) => item.id)).toEqual([created.id, won.id, second.id]);
    expect((await queuedEvents(followUp)).map((item) => item.id)).toEqual([created.id, second.id]);
  });

  it('adds nothing for a pass whose events no consumer subscribes to, and still marks the rows', async () => {
    const lonely = OutboxSubscriptions.of([new OutboxSubscription({ consumer: 'lead-follow-up', events: ['lead_created'] })]);
    const won = event('deal_won');
    await commit([won]);
    const subject = new OutboxRelay(db, config, clock, lonely, { autoStart: false, enqueueTimeoutMs: 1000 });
    relays.push(subject);

    expect(await subject.relayBatch()).toEqual({ relayed: [won.id], failed: [] });
    expect(await followUp.count()).toBe(0);
    expect((await row(won.id))?.relayed_at).toEqual(clock.now());
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
      const second = new OutboxRelay(otherDb, config, clock, SUBSCRIPTIONS, { autoStart: false, batchSize: 7, enqueueTimeoutMs: 1000 });
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
      const queued = (await queuedEvents(queue)).map((item) => item.id);
      expect(queued.length).toBe(240);
      expect(new Set(queued).size).toBe(240);
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
    const subject = relay({ intervalMs: 50, maxBackoffMs: 300, enqueueTimeoutMs: 300 }, { REDIS_URL: `redis://127.0.0.1:${port}${new URL(services.redisUrl).pathname}` });

    const refused = await subject.relayBatch();

    expect(refused.relayed).toEqual([]);
    expect(refused.failed).toEqual([pending.id]);
    expect(await row(pending.id)).toEqual({ relayed_at: null, relay_attempts: 1 });

    subject.start();
    await waitFor(async () => ((await row(pending.id))?.relay_attempts ?? 0) >= 4, 10_000, 'retries');
    expect((await row(pending.id))?.relayed_at).toBeNull();
    expect(await queue.count()).toBe(0);

    const proxy = await redisProxy(services.redisUrl, port);
    try {
      await waitFor(async () => (await row(pending.id))?.relayed_at != null, 20_000, 'relay after Redis came back');
      expect(await queuedEvents(queue)).toEqual([{ id: pending.id, type: 'lead_created' }]);
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


/** What the test consumers did: event ids they handled, in order, and what they should do instead. */
const handled: Record<'test-audit' | 'test-leads', string[]> = { 'test-audit': [], 'test-leads': [] };
const behaviour = { failOnce: new Set<string>(), reject: new Set<string>(), alwaysFail: new Set<string>() };
const FAST_RETRY = { backoff: { type: 'fixed' as const, delay: 100 } };

@Processor(consumerQueueName('test-audit'))
class AuditConsumer extends IntegrationEventConsumer {
  protected async handle(event: IntegrationEventJob): Promise<void> {
    if (behaviour.reject.has(event.id)) throw new DomainError('not_for_this_consumer', 'refused for good');
    if (behaviour.failOnce.delete(event.id) || behaviour.alwaysFail.has(event.id)) throw new Error('database hiccup');
    handled['test-audit'].push(event.id);
  }
}

@Processor(consumerQueueName('test-leads'))
class LeadsConsumer extends IntegrationEventConsumer {
  protected async handle(event: IntegrationEventJob): Promise<void> {
    handled['test-leads'].push(event.id);
  }
}

@Module({
  imports: [
    OutboxSubscriptionModule.forConsumer({ consumer: 'test-audit', events: '*', jobOptions: FAST_RETRY }),
    OutboxSubscriptionModule.forConsumer({ consumer: 'test-leads', events: ['lead_created'], jobOptions: FAST_RETRY }),
  ],
  providers: [AuditConsumer, LeadsConsumer],
})
class ConsumersModule {}

describe('Outbox consumers: inbox and reconciler', () => {
  let services: TestServices;
  let app: INestApplicationContext;
  let db: DataSource;
  let transactions: TransactionHost;
  let outbox: OutboxWriter;
  let reconciler: OutboxReconciler;
  const queues: Queue[] = [];
  const queueOf = (consumer: string) => {
    const created = new Queue(consumerQueueName(consumer), { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` });
    queues.push(created);
    return created;
  };
  const inbox = async (ids: string[]) =>
    (await db.query(`SELECT event_id, consumer, outcome FROM platform.event_inbox WHERE event_id = ANY($1::uuid[]) ORDER BY consumer, event_id`, [
      ids,
    ])) as { event_id: string; consumer: string; outcome: string }[];
  const relayed = async (ids: string[]) =>
    ((await db.query(`SELECT count(*)::int AS n FROM platform.outbox WHERE id = ANY($1::uuid[]) AND relayed_at IS NOT NULL`, [ids])) as { n: number }[])[0].n;
  const watermark = async () => ((await db.query(`SELECT sequence::text AS sequence FROM platform.outbox_reconciliation`)) as { sequence: string }[])[0].sequence;
  /** Writes events as the relay leaves them when Redis then restarts empty: relayed, in no queue. */
  const relayedButLost = async (items: IntegrationEvent[]) => {
    for (const item of items) {
      await db.query(
        `INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relayed_at, relay_attempts) VALUES ($1, $2, $3, $4, $5, $6, now(), 1)`,
        [item.id, item.accountId, item.type, item.payload, item.actor, item.occurredAt],
      );
    }
  };
  const sequenceOf = async (id: string) => ((await db.query(`SELECT sequence::text AS sequence FROM platform.outbox WHERE id = $1`, [id])) as { sequence: string }[])[0].sequence;

  beforeAll(async () => {
    services = await createTestServices();
    const config = services.config({ OUTBOX_RELAY_INTERVAL_MS: '25' });
    @Module({
      imports: [
        PlatformModule.forRoot({ config }),
        QueueModule.forRoot(),
        OutboxRelayModule.forRoot({}, { autoStart: false, graceMs: 0, maxAttempts: 2 }),
        ConsumersModule,
      ],
    })
    class WorkerUnderTest {}
    app = await NestFactory.createApplicationContext(WorkerUnderTest, { logger: false, abortOnError: false });
    await app.init();
    db = app.get(DataSource);
    transactions = app.get(TransactionHost);
    outbox = app.get(OutboxWriter);
    reconciler = app.get(OutboxReconciler);
  });

  beforeEach(() => {
    handled['test-audit'] = [];
    handled['test-leads'] = [];
    behaviour.failOnce.clear();
    behaviour.reject.clear();
    behaviour.alwaysFail.clear();
  });

  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await app?.close();
    await services.dispose();
  });

  it('each consumer handles each relayed event once and records it in the inbox', async () => {
    const created = event('lead_created', { contact_id: 'c-3' });
    const won = event('deal_won', { deal_id: 'd-1' });
    await transactions.run(() => outbox.append([created, won]));

    await waitFor(async () => (await inbox([created.id, won.id])).length === 3, 10_000, 'both consumers');

    expect(handled['test-audit']).toEqual([created.id, won.id]);
    expect(handled['test-leads']).toEqual([created.id]);
    expect(await inbox([created.id, won.id])).toEqual(
      [
        { event_id: created.id, consumer: 'test-audit', outcome: 'handled' },
        { event_id: won.id, consumer: 'test-audit', outcome: 'handled' },
        { event_id: created.id, consumer: 'test-leads', outcome: 'handled' },
      ].sort((a, b) => a.consumer.localeCompare(b.consumer) || a.event_id.localeCompare(b.event_id)),
    );
  });

  it('a batch delivered again (another job id) is not handled twice: the inbox skips what it recorded', async () => {
    const created = event('lead_created', { contact_id: 'c-5' });
    await transactions.run(() => outbox.append([created]));
    await waitFor(async () => (await inbox([created.id])).length === 2, 10_000, 'first delivery');
    const [job] = (await queueOf('test-leads').getJobs(['completed'])).filter((candidate) =>
      (candidate.data as IntegrationEventBatchJob).events.some((item) => item.id === created.id),
    );

    const again = await queueOf('test-leads').add('events', job.data as IntegrationEventBatchJob, { jobId: 'replayed-by-hand' });
    await waitFor(async () => (await again.getState()) === 'completed', 10_000, 'replayed batch');

    expect(handled['test-leads']).toEqual([created.id]);
    expect((await queueOf('test-leads').getJob('replayed-by-hand'))?.returnvalue).toEqual({ handled: 0, skipped: 1, rejected: 0 });
  });

  it('a DomainError is recorded as rejected and never retried; another failure retries the batch for that event only', async () => {
    const refused = event('deal_won', { deal_id: 'd-2' });
    const flaky = event('deal_won', { deal_id: 'd-3' });
    const fine = event('deal_won', { deal_id: 'd-4' });
    behaviour.reject.add(refused.id);
    behaviour.failOnce.add(flaky.id);
    await transactions.run(() => outbox.append([refused, flaky, fine]));

    await waitFor(async () => (await inbox([refused.id, flaky.id, fine.id])).length === 3, 10_000, 'retry of the flaky event');

    expect(handled['test-audit']).toEqual([fine.id, flaky.id]);
    expect(Object.fromEntries((await inbox([refused.id, flaky.id, fine.id])).map((entry) => [entry.event_id, entry.outcome]))).toEqual({
      [refused.id]: 'rejected:not_for_this_consumer',
      [flaky.id]: 'handled',
      [fine.id]: 'handled',
    });
  });

  it('events whose jobs Redis lost (relayed, never recorded) are re-enqueued by the reconciler and handled exactly once', async () => {
    await reconciler.reconcile(); // the watermark catches up with the earlier tests' events
    const lost = Array.from({ length: 5 }, (_, index) => event(index % 2 === 0 ? 'lead_created' : 'deal_won', { n: index }));
    const ids = lost.map((item) => item.id);
    await relayedButLost(lost);

    const pass = await reconciler.reconcile();

    expect(pass.ran).toBe(true);
    expect(pass.requeued.map((entry) => entry.eventId)).toEqual(ids);
    expect(pass.requeued.map((entry) => entry.consumers)).toEqual(lost.map((item) => (item.type === 'lead_created' ? ['test-audit', 'test-leads'] : ['test-audit'])));
    expect(BigInt(pass.watermark)).toBeLessThan(BigInt(await sequenceOf(ids[0])));
    await waitFor(async () => (await inbox(ids)).length === 8, 10_000, 're-enqueued events handled');
    expect([...handled['test-audit']].sort()).toEqual([...ids].sort());
    expect([...handled['test-leads']].sort()).toEqual(lost.filter((item) => item.type === 'lead_created').map((item) => item.id).sort());

    const next = await reconciler.reconcile();
    expect(next.requeued).toEqual([]);
    expect(next.watermark).toBe(await sequenceOf(ids[ids.length - 1]));
    expect(await watermark()).toBe(next.watermark);
    expect(handled['test-audit']).toHaveLength(5);
  });

  it('the reconciler gives up on an event after maxAttempts re-enqueues and moves its watermark on', async () => {
    await reconciler.reconcile();
    const stuck = event('deal_won', { deal_id: 'never' });
    behaviour.alwaysFail.add(stuck.id);
    await relayedButLost([stuck]);

    const passes = [await reconciler.reconcile(), await reconciler.reconcile(), await reconciler.reconcile()];

    expect(passes.map((pass) => pass.requeued.map((entry) => entry.eventId))).toEqual([[stuck.id], [stuck.id], []]);
    expect(passes[2].abandoned).toEqual([stuck.id]);
    expect(passes[2].watermark).toBe(await sequenceOf(stuck.id));
    expect(await db.query(`SELECT reconcile_attempts FROM platform.outbox WHERE id = $1`, [stuck.id])).toEqual([{ reconcile_attempts: 2 }]);
    expect(await inbox([stuck.id])).toEqual([]);
    expect(handled['test-audit']).toEqual([]);
  });

  it('the reconciler leaves alone events relayed within the grace period', async () => {
    await reconciler.reconcile();
    const patient = new OutboxReconciler(db, app.get(OutboxRelay), app.get(OutboxSubscriptions), new FixedClock(new Date()), services.config(), {
      autoStart: false,
      graceMs: 60_000,
    });
    const auditWorker = app.get(AuditConsumer).worker;
    await auditWorker.pause(true);
    try {
      const recent = event('deal_won', { deal_id: 'recent' });
      await transactions.run(() => outbox.append([recent]));
      await waitFor(async () => (await relayed([recent.id])) === 1, 10_000, 'relay');
      const before = await watermark();

      const pass = await patient.reconcile();

      expect(pass.requeued).toEqual([]);
      expect(pass.checked).toBe(0);
      expect(await watermark()).toBe(before);
    } finally {
      auditWorker.resume();
    }
  });

  it("Redis's data lost (its marker gone): unrecorded events relayed before the loss are re-enqueued at the next pass, without the grace", async () => {
    await reconciler.reconcile();
    // A clock a second ahead of PostgreSQL's, so the rows below count as relayed before the loss it detects.
    const patient = new OutboxReconciler(db, app.get(OutboxRelay), app.get(OutboxSubscriptions), new FixedClock(new Date(Date.now() + 1000)), services.config(), {
      autoStart: false,
      graceMs: 300_000,
    });
    await patient.reconcile(); // the marker is in Redis and recorded
    const lost = [event('deal_won', { deal_id: 'lost-with-redis' })];
    await relayedButLost(lost);
    expect((await patient.reconcile()).requeued).toEqual([]); // within the grace, Redis intact: left alone

    const redis = new IORedis(services.redisUrl);
    try {
      await redis.del(`${services.redisPrefix}:outbox:redis-marker`); // what a Redis restarted empty looks like
    } finally {
      redis.disconnect();
    }
    const pass = await patient.reconcile();

    expect(pass.redisLostBefore).toBeInstanceOf(Date);
    expect(pass.requeued).toEqual([{ eventId: lost[0].id, consumers: ['test-audit'] }]);
    await waitFor(async () => (await inbox([lost[0].id])).length === 1, 10_000, 're-enqueued event handled');
    const next = await patient.reconcile();
    expect(next.requeued).toEqual([]);
    expect(next.redisLostBefore).toBeUndefined();
  });

  it('Redis restarted empty before any marker was recorded (lost seconds after a deploy): events relayed into the old Redis are re-enqueued at the next pass', async () => {
    // A Redis server of the test's own, killed and restarted empty (the shared one is never touched).
    const port = await closedPort();
    const startRedis = async () => {
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
      const probe = new IORedis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
      try {
        await waitFor(async () => (await probe.ping().catch(() => '')) === 'PONG', 10_000, 'redis-server');
      } finally {
        probe.disconnect();
      }
      return child;
    };
    let redis = await startRedis();
    const config = services.config({ REDIS_URL: `redis://127.0.0.1:${port}${new URL(services.redisUrl).pathname}` });
    const relay = new OutboxRelay(db, config, new SystemClock(), app.get(OutboxSubscriptions), { autoStart: false, enqueueTimeoutMs: 2000 });
    const fresh = new OutboxReconciler(db, relay, app.get(OutboxSubscriptions), new SystemClock(), config, { autoStart: false, graceMs: 300_000, maxAttempts: 2 });
    const waiting = new Queue(consumerQueueName('test-audit'), { connection: { ...bullConnection(config.redisUrl), lazyConnect: true }, prefix: `${config.redisPrefix}:bull` });
    waiting.on('error', () => undefined);
    try {
      // A new install: nothing recorded yet, the earlier tests' rows behind the watermark.
      await db.query(
        `UPDATE platform.outbox_reconciliation SET redis_marker = NULL, redis_seen_at = NULL, lost_before = NULL, sequence = (SELECT coalesce(max(sequence), 0) FROM platform.outbox)`,
      );
      const lost = [event('deal_won', { deal_id: 'lost-before-first-pass-1' }), event('deal_won', { deal_id: 'lost-before-first-pass-2' })];
      await relayedButLost(lost);
      const killed = new Promise((resolve) => redis.once('exit', resolve));
      redis.kill('SIGKILL');
      await killed;
      redis = await startRedis();

      const pass = await fresh.reconcile();

      expect(pass.redisLostBefore).toBeInstanceOf(Date);
      expect(pass.requeued).toEqual(lost.map((item) => ({ eventId: item.id, consumers: ['test-audit'] })));
      const jobs = (await waiting.getJobs(['waiting'])) as Job<IntegrationEventBatchJob>[];
      expect(jobs.flatMap((job) => job.data.events.map((item) => item.id)).sort()).toEqual(lost.map((item) => item.id).sort());
      // The marker is recorded now: the next pass finds Redis intact and re-enqueues nothing more.
      const next = await fresh.reconcile();
      expect(next.redisLostBefore).toBeUndefined();
      expect(next.requeued).toEqual([]);
    } finally {
      await waiting.close().catch(() => undefined);
      await relay.stop();
      redis.kill('SIGKILL');
      await db.query(`UPDATE platform.outbox_reconciliation SET redis_marker = NULL, redis_seen_at = NULL, lost_before = NULL`);
    }
  });

  it('a reconciler pass deletes inbox rows older than the retention (7 days) and keeps the others', async () => {
    const old = event('deal_won');
    const fresh = event('deal_won');
    await db.query(
      `INSERT INTO platform.event_inbox (event_id, consumer, account_id, outcome, recorded_at)
       VALUES ($1, 'test-audit', $3, 'handled', now() - interval '8 days'), ($2, 'test-audit', $3, 'handled', now() - interval '6 days')`,
      [old.id, fresh.id, ACCOUNT_ID],
    );

    await reconciler.reconcile();

    expect((await inbox([old.id, fresh.id])).map((entry) => entry.event_id)).toEqual([fresh.id]);
  });

  it('EventInbox.consume with parallelism 4 handles at most four events of a batch at a time and records them all', async () => {
    const inboxService = app.get(EventInbox);
    const written = Array.from({ length: 10 }, () => event('deal_won'));
    await relayedButLost(written);
    const batch = written.map(({ id, type }) => ({ id, type }));
    let running = 0;
    let most = 0;

    const outcome = await inboxService.consume(
      'test-audit',
      batch,
      async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running -= 1;
      },
      4,
    );

    expect(outcome).toEqual({ handled: 10, skipped: 0, rejected: 0 });
    expect(most).toBe(4);
    expect(await inbox(batch.map((item) => item.id))).toHaveLength(10);
  });

  it('EventInbox.consume hands the handler the event as the outbox row holds it, and skips ids with no row', async () => {
    const written = event('deal_won', { deal_id: 'd-10' });
    await relayedButLost([written]);
    const seen: IntegrationEventJob[] = [];

    const outcome = await app.get(EventInbox).consume('test-audit', [{ id: randomUUID(), type: 'deal_won' }, { id: written.id, type: 'deal_won' }], async (item) => {
      seen.push(item);
    });

    expect(outcome).toEqual({ handled: 1, skipped: 1, rejected: 0 });
    expect(seen).toEqual([
      {
        id: written.id,
        sequence: await sequenceOf(written.id),
        type: 'deal_won',
        accountId: ACCOUNT_ID,
        occurredAt: '2026-11-02T15:04:05.123Z',
        payload: { deal_id: 'd-10' },
        actor: SYSTEM_ACTOR,
        // Written outside any api request (issue 17, item 4: platform.outbox.request_id).
        requestId: null,
      },
    ]);
  });

  it('EventInbox.consume records nothing for an event whose handler failed, so a later batch handles it', async () => {
    const inboxService = app.get(EventInbox);
    const written = event('deal_won', { deal_id: 'd-9' });
    await relayedButLost([written]);
    const failing = { id: written.id, type: written.type };
    await expect(
      inboxService.consume('test-audit', [failing], async () => {
        throw new Error('down');
      }),
    ).rejects.toThrow('1 event(s) failed: down');
    expect(await inbox([failing.id])).toEqual([]);

    expect(await inboxService.consume('test-audit', [failing], async () => undefined)).toEqual({ handled: 1, skipped: 0, rejected: 0 });
    expect(await inbox([failing.id])).toEqual([{ event_id: failing.id, consumer: 'test-audit', outcome: 'handled' }]);
  });
});
