import { randomUUID } from 'node:crypto';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { Queue, Worker } from 'bullmq';
import { DataSource } from 'typeorm';
import { Clock, FixedClock } from '@leadflow/shared-kernel';
import { AppConfig, bullConnection, PlatformModule, QueueModule } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { BullMqWebhookDeliveryScheduler, WEBHOOK_DELIVERY_QUEUE, WebhookDeliverySweeper, WebhooksCoreModule } from '@leadflow/webhooks-adapters';

/** What a worker process gives its sweeper (its own PostgreSQL pool, Redis connection and webhooks handlers), without processors: only the test takes jobs. */
async function workerContext(config: AppConfig, clock: Clock): Promise<INestApplicationContext> {
  @Module({
    imports: [
      PlatformModule.forRoot({ config, clock }),
      QueueModule.forRoot(),
      WebhooksCoreModule.register({ scheduler: BullMqWebhookDeliveryScheduler, imports: [BullModule.registerQueue({ name: WEBHOOK_DELIVERY_QUEUE })] }),
    ],
  })
  class SweepingWorker {}
  const app = await NestFactory.createApplicationContext(SweepingWorker, { logger: false, abortOnError: false });
  await app.init();
  return app;
}

/**
 * The webhook delivery sweeper (the safety net for lost jobs) with two workers (issue 11, item 5:
 * scale-out). Both workers' sweepers scan the same deliveries; a delivery whose job (the one its row
 * names: the delivery id, or the sweeper's `<delivery>.m<minute>`) is merely waiting in a backlog or for
 * its BullMQ backoff is not lost and gets no second job, and a lost one gets one job per minute whichever
 * worker sweeps it and however often.
 */
describe('webhook delivery sweeper: two workers sweeping the same deliveries', () => {
  let services: TestServices;
  const workers: INestApplicationContext[] = [];
  let queue: Queue;
  let db: DataSource;
  let config: AppConfig;
  // Mid-minute, so advancing a few seconds stays in the same minute.
  const clock = new FixedClock(new Date('2026-11-24T15:30:20.000Z'));
  const sweepers: WebhookDeliverySweeper[] = [];
  let grabber: Worker | undefined;

  beforeAll(async () => {
    services = await createTestServices();
    config = services.config({ WEBHOOK_SWEEP_GRACE_MS: '60000', WEBHOOK_LEASE_MS: '30000' });
    for (let index = 0; index < 2; index++) workers.push(await workerContext(config, clock));
    for (const worker of workers) sweepers.push(new WebhookDeliverySweeper(worker.get(CommandBus), config));
    queue = workers[0].get<Queue>(getQueueToken(WEBHOOK_DELIVERY_QUEUE), { strict: false });
    db = workers[0].get(DataSource);
  }, 30_000);
  afterAll(async () => {
    await grabber?.close(true).catch(() => undefined);
    for (const worker of workers) await worker.close().catch(() => undefined);
    await services?.dispose();
  });

  /** A delivery due `overdueMs` ago (by the test clock), never claimed, without any job yet. */
  async function delivery(status: 'pending' | 'retrying', attempt: number, overdueMs = 5 * 60_000): Promise<string> {
    const id = randomUUID();
    const at = new Date(clock.now().getTime() - overdueMs);
    await db.query(
      `INSERT INTO webhooks.deliveries (id, account_id, subscription_id, event_id, event, body, status, attempt, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'lead_created', '{}'::jsonb, $5, $6, $7, $7, $7)`,
      [id, randomUUID(), randomUUID(), randomUUID(), status, attempt, at],
    );
    return id;
  }

  const jobIdsOf = async (deliveryId: string) =>
    (await queue.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed'])).map((job) => job.id!).filter((id) => id.startsWith(deliveryId)).sort();

  it('a delivery whose job waits in a backlog (or for its backoff) is not swept; a lost one gets one job for all sweeps of both workers in a minute', async () => {
    const queued = await delivery('pending', 0);
    const queuedRetry = await delivery('retrying', 2);
    // Their jobs (id = the delivery id, as the fan-out names them) wait in the queue, one delayed as by a BullMQ backoff.
    await queue.add('deliver-webhook', { accountId: randomUUID(), deliveryId: queued }, { jobId: queued });
    await queue.add('deliver-webhook', { accountId: randomUUID(), deliveryId: queuedRetry }, { jobId: queuedRetry, delay: 3_600_000 });
    const lost = await delivery('pending', 0);
    const lostRetry = await delivery('retrying', 1);

    const swept: string[][] = [];
    for (let round = 0; round < 3; round++) {
      swept.push(...(await Promise.all(sweepers.map((sweeper) => sweeper.sweep()))));
      clock.advance(2000); // later sweeps of the same minute
    }

    const minute = Math.floor(clock.now().getTime() / 60_000);
    expect(await jobIdsOf(queued)).toEqual([queued]);
    expect(await jobIdsOf(queuedRetry)).toEqual([queuedRetry]);
    expect(await jobIdsOf(lost)).toEqual([`${lost}.m${minute}`]);
    expect(await jobIdsOf(lostRetry)).toEqual([`${lostRetry}.m${minute}`]);
    // The row names the job now carrying it, with the attempts the schedule has left.
    expect((await db.query(`SELECT job_id FROM webhooks.deliveries WHERE id = $1`, [lostRetry]))[0].job_id).toBe(`${lostRetry}.m${minute}`);
    expect((await queue.getJob(`${lostRetry}.m${minute}`))?.opts.attempts).toBe(11);
    for (const ids of swept) expect(ids).not.toContain(queued);
    expect(new Set(swept.flat())).toEqual(new Set([lost, lostRetry]));
  });

  it('a lost delivery whose rescue job ended without settling it (it found the delivery busy) is scheduled again (once) a minute later', async () => {
    const lost = await delivery('pending', 0);
    await Promise.all(sweepers.map((sweeper) => sweeper.sweep()));
    const first = Math.floor(clock.now().getTime() / 60_000);
    clock.advance(30_000);
    await Promise.all(sweepers.map((sweeper) => sweeper.sweep())); // still queued: nothing more
    expect(await jobIdsOf(lost)).toEqual([`${lost}.m${first}`]);
    // The rescue job ran and skipped (the delivery was leased by an attempt that then died).
    await (await queue.getJob(`${lost}.m${first}`))!.remove();
    clock.advance(30_000);
    await Promise.all(sweepers.map((sweeper) => sweeper.sweep()));

    expect(await jobIdsOf(lost)).toEqual([`${lost}.m${first + 1}`]);
  });

  it('a delivery whose attempt job a worker took less than a lease ago is left to it; taken longer ago (a dead worker), it is swept', async () => {
    clock.set(new Date()); // BullMQ stamps `processedOn` with the real time
    const taken = await delivery('pending', 0);
    await queue.add('deliver-webhook', { accountId: randomUUID(), deliveryId: taken }, { jobId: taken });
    // Another "worker" takes the job (active, lock held) and has not claimed the row yet.
    grabber = new Worker(WEBHOOK_DELIVERY_QUEUE, null, { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` });
    for (let index = 0; index < 20; index++) {
      const job = await grabber.getNextJob(`grabber-${index}`);
      if (!job || job.id === taken) break;
    }
    expect(await queue.getJobState(taken)).toBe('active');

    const early = (await Promise.all(sweepers.map((sweeper) => sweeper.sweep()))).flat();
    clock.advance(config.webhookDelivery.leaseMs + 1000);
    const late = (await Promise.all(sweepers.map((sweeper) => sweeper.sweep()))).flat();

    expect(early).not.toContain(taken);
    expect(late).toContain(taken);
    expect(await jobIdsOf(taken)).toEqual([taken, `${taken}.m${Math.floor(clock.now().getTime() / 60_000)}`].sort());
  });

  it('a delivery leased by a live attempt, or not yet past the grace, is left alone', async () => {
    const leased = await delivery('pending', 0);
    await db.query(`UPDATE webhooks.deliveries SET locked_until = $2 WHERE id = $1`, [leased, new Date(clock.now().getTime() + 10_000)]);
    const recent = await delivery('pending', 0, 30_000);

    const swept = (await Promise.all(sweepers.map((sweeper) => sweeper.sweep()))).flat();

    expect(swept).not.toContain(leased);
    expect(swept).not.toContain(recent);
    expect(await jobIdsOf(leased)).toEqual([]);
    expect(await jobIdsOf(recent)).toEqual([]);
  });
});
