import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig } from '../config/app-config';
import { createRedisClient, queuePrefix, RedisClient } from '../redis/redis-topology';
import { Poller } from '../scheduling/poller';
import {
  CONSUMER_JOB_OPTIONS,
  consumerBatchJobId,
  consumerQueueName,
  INTEGRATION_EVENT_BATCH_JOB,
  IntegrationEventBatchJob,
  IntegrationEventRef,
} from './integration-event.job';
import { OUTBOX_PARTITION_SQL, OUTBOX_PARTITIONS } from './outbox-partition';
import { OutboxSubscription } from './outbox-subscription';
import { OutboxSubscriptions } from './outbox-subscriptions';

/** Tuning of the relay; `AppConfig` gives the poll interval and batch size. */
export interface OutboxRelaySettings {
  /** Pause between polls when the outbox is empty (ms). A full batch is followed at once by the next. */
  intervalMs: number;
  /** Rows locked and enqueued per transaction (also the largest batch a consumer receives). */
  batchSize: number;
  /** Longest wait for Redis on one enqueue before the batch counts as failed and its locks are released (ms). */
  enqueueTimeoutMs: number;
  /** Ceiling of the exponential backoff after consecutive failures (ms). */
  maxBackoffMs: number;
  /** Start polling when the application boots (the worker); false leaves it to `start()` / `relayBatch()`. */
  autoStart: boolean;
}

export const OUTBOX_RELAY_SETTINGS = Symbol('OUTBOX_RELAY_SETTINGS');

/** What one pass did: ids enqueued and marked, or ids left unrelayed (their `relay_attempts` went up). */
export interface OutboxRelayBatch {
  relayed: string[];
  failed: string[];
  error?: unknown;
}

/** One consumer's share of some outbox rows, in outbox order. */
export interface ConsumerBatch {
  subscription: OutboxSubscription;
  events: IntegrationEventRef[];
}

/** The columns of `platform.outbox` the relay and the reconciler read (consumers read the rest). */
export interface OutboxRow {
  id: string;
  sequence: string;
  type: string;
}

class EnqueueTimeout extends Error {
  constructor(milliseconds: number) {
    super(`Redis did not answer within ${milliseconds} ms`);
  }
}

function within<T>(work: Promise<T>, milliseconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EnqueueTimeout(milliseconds)), milliseconds);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The worker's transactional-outbox relay (ARCHITECTURE › Writes, events and the worker).
 *
 * Each pass, per account partition with unrelayed rows (docs/adr/0008) and in one PostgreSQL
 * transaction per partition: lock the oldest unrelayed rows of that partition of `platform.outbox`
 * (`FOR UPDATE SKIP LOCKED`, so concurrent relays never take the same row), add to the queue of every
 * consumer subscribed to their types (`integration-events.<consumer>`) ONE batch job naming that
 * consumer's events in outbox order (`IntegrationEventBatchJob`: ids and types, the rows stay in
 * PostgreSQL; job id `consumerBatchJobId`), then set
 * `relayed_at`. A pass of 100 rows for 3 consumers is 3 jobs, not 100 + 300.
 * Outbox order holds within a partition, hence within an account; partitions are relayed one after
 * the other and never in one job.
 *
 * `relayed_at` means "in the consumers' queues", not "consumed": each consumer records the events it
 * handled in `platform.event_inbox`, and the `OutboxReconciler` re-enqueues events some consumer never
 * recorded (Redis restarted empty, a job failed for good), so an event is never lost once committed.
 *
 * When Redis does not answer, the rows stay unrelayed with `relay_attempts` incremented, the locks are
 * released, and the relay backs off exponentially before trying again. The relay has its own Redis
 * connection without an offline queue, so an enqueue fails fast while Redis is down instead of piling
 * up in memory, and never holds row locks longer than `enqueueTimeoutMs`.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly settings: OutboxRelaySettings;
  private connection: RedisClient | null = null;
  private readonly queues = new Map<string, Queue>();
  private readonly poller: Poller;
  private consecutiveFailures = 0;
  /** Whether the last pass filled a whole batch in some partition (more rows are waiting). */
  private backlog = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly subscriptions: OutboxSubscriptions,
    @Optional() @Inject(OUTBOX_RELAY_SETTINGS) settings: Partial<OutboxRelaySettings> | null = null,
  ) {
    this.settings = {
      intervalMs: config.outboxRelayIntervalMs,
      batchSize: config.outboxRelayBatchSize,
      enqueueTimeoutMs: 5000,
      maxBackoffMs: 30_000,
      autoStart: true,
      ...(settings ?? {}),
    };
    this.poller = new Poller({ name: 'Outbox relay', intervalMs: this.settings.intervalMs, initialDelayMs: 0, pass: () => this.tick() });
  }

  onApplicationBootstrap(): void {
    if (this.settings.autoStart) this.start();
  }

  /** Shutdown step one (before workers drain and connections close): stop polling, finish the current pass. */
  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  get isRunning(): boolean {
    return this.poller.isRunning;
  }

  /** Starts polling (idempotent): the first pass at once, then every `intervalMs` (0 with a backlog, backoff after failures). */
  start(): void {
    if (this.poller.isRunning) return;
    this.logger.log({ intervalMs: this.settings.intervalMs, batchSize: this.settings.batchSize }, 'Outbox relay started');
    this.poller.start();
  }

  /** Stops polling, waits for the pass in progress, closes the relay's Redis connection. */
  async stop(): Promise<void> {
    const wasRunning = this.poller.isRunning;
    await this.poller.stop();
    await this.closeProducers();
    if (wasRunning) this.logger.log('Outbox relay stopped');
  }

  /**
   * One pass over the account partitions (`outbox-partition.ts`, docs/adr/0008): one statement finds the
   * partitions holding unrelayed rows (a read without locks), then each of them is relayed in a
   * transaction of its own (`relayPartition`). Stops at the first partition Redis refused (reported in
   * the result); throws when PostgreSQL fails.
   */
  async relayBatch(): Promise<OutboxRelayBatch> {
    const pending: { partition: number }[] = await this.db.query(
      `SELECT p AS partition FROM generate_series(0, ${OUTBOX_PARTITIONS - 1}) AS p
        WHERE EXISTS (SELECT 1 FROM platform.outbox WHERE ${OUTBOX_PARTITION_SQL} = p AND relayed_at IS NULL)`,
    );
    const pass: OutboxRelayBatch = { relayed: [], failed: [] };
    this.backlog = false;
    for (const { partition } of pending) {
      const batch = await this.relayPartition(partition);
      pass.relayed.push(...batch.relayed);
      pass.failed.push(...batch.failed);
      if (batch.relayed.length === this.settings.batchSize) this.backlog = true;
      if (batch.error !== undefined) return { ...pass, error: batch.error };
    }
    return pass;
  }

  /**
   * Locks up to `batchSize` unrelayed rows of ONE partition in sequence order (`FOR UPDATE SKIP LOCKED`
   * restricted to it: no lock on another partition's rows), enqueues them and marks them relayed, all in
   * one transaction. Never throws for Redis trouble (reported in the result); throws when PostgreSQL fails.
   */
  async relayPartition(partition: number): Promise<OutboxRelayBatch> {
    return this.db.transaction(async (manager) => {
      const rows: (OutboxRow & { account_id: string })[] = await manager.query(
        `SELECT id, account_id, o.sequence::text AS sequence, type
           FROM platform.outbox o
          WHERE ${OUTBOX_PARTITION_SQL} = $2 AND relayed_at IS NULL
          ORDER BY o.sequence
          LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [this.settings.batchSize, partition],
      );
      if (rows.length === 0) return { relayed: [], failed: [] };
      const ids = rows.map((row) => row.id);
      const keys = [rows.map((row) => row.account_id), ids];
      try {
        await this.enqueue(rows);
      } catch (error) {
        await manager.query(
          `UPDATE platform.outbox SET relay_attempts = relay_attempts + 1 WHERE (account_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`,
          keys,
        );
        return { relayed: [], failed: ids, error };
      }
      await manager.query(
        `UPDATE platform.outbox SET relayed_at = $3, relay_attempts = relay_attempts + 1 WHERE (account_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`,
        [...keys, this.clock.now()],
      );
      return { relayed: ids, failed: [] };
    });
  }

  private async enqueue(rows: OutboxRow[]): Promise<void> {
    await this.addBatches(this.batchesOf(rows), (consumer, events) => consumerBatchJobId(consumer, events.map((event) => event.id)));
  }

  /**
   * The reconciler's way back in: adds `batches` (events some consumer has not recorded) to the
   * consumers' queues with job ids `r-<consumer>.<digest of ids and attempt>`. Throws when Redis does
   * not answer within `enqueueTimeoutMs`.
   */
  async requeue(batches: readonly ConsumerBatch[], attempt: number): Promise<void> {
    await this.addBatches(batches, (consumer, events) => consumerBatchJobId(consumer, [...events.map((event) => event.id), `#${attempt}`], 'reconcile'));
  }

  /**
   * Runs `command` on the relay's own Redis connection (the reconciler's check for lost Redis data).
   * Throws when Redis does not answer within `enqueueTimeoutMs`.
   */
  async onRedis<T>(command: (redis: RedisClient) => Promise<T>): Promise<T> {
    const connection = this.producerConnection();
    await within(this.ready(connection), this.settings.enqueueTimeoutMs);
    return within(command(connection), this.settings.enqueueTimeoutMs);
  }

  private async addBatches(batches: readonly ConsumerBatch[], jobIdOf: (consumer: string, events: IntegrationEventRef[]) => string): Promise<void> {
    if (batches.length === 0) return;
    const timeout = this.settings.enqueueTimeoutMs;
    const connection = this.producerConnection();
    // Waits for the first connection without issuing commands: while Redis has never answered,
    // nothing is queued in memory; once connected, commands fail fast when the link drops.
    await within(this.ready(connection), timeout).catch((error: unknown) => {
      // A timeout means "still connecting". Anything else left the connection unusable: start over.
      if (!(error instanceof EnqueueTimeout)) void this.closeProducers();
      throw error;
    });
    await within(
      Promise.all(
        batches.map(({ subscription, events }) =>
          this.queueOf(subscription.consumer, connection).add(
            INTEGRATION_EVENT_BATCH_JOB,
            { events } satisfies IntegrationEventBatchJob,
            {
              ...CONSUMER_JOB_OPTIONS,
              ...subscription.jobOptions,
              jobId: jobIdOf(subscription.consumer, events),
            },
          ),
        ),
      ),
      timeout,
    );
  }

  /** Each subscribed consumer's share of the rows, in outbox order; consumers with no event get no job. */
  private batchesOf(rows: OutboxRow[]): ConsumerBatch[] {
    const byConsumer = new Map<string, ConsumerBatch>();
    for (const row of rows) {
      const event: IntegrationEventRef = { id: row.id, type: row.type };
      for (const subscription of this.subscriptions.consumersOf(row.type)) {
        let batch = byConsumer.get(subscription.consumer);
        if (!batch) byConsumer.set(subscription.consumer, (batch = { subscription, events: [] }));
        batch.events.push(event);
      }
    }
    return [...byConsumer.values()];
  }

  /**
   * The relay's own connection (`REDIS_URL` with its TLS scheme, or a `Cluster` on `REDIS_CLUSTER_NODES`
   * that follows MOVED and failovers; docs/adr/0006).
   */
  private producerConnection(): RedisClient {
    this.connection ??= createRedisClient(this.config.redisTopology, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: this.settings.enqueueTimeoutMs,
      retryStrategy: (times: number) => Math.min(200 * times, 5000),
    }).on('error', () => undefined); // connection errors surface as failed passes, logged below
    return this.connection;
  }

  private async ready(connection: RedisClient): Promise<void> {
    if (connection.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const onReady = () => {
        connection.off('end', onEnd);
        resolve();
      };
      const onEnd = () => {
        connection.off('ready', onReady);
        reject(new Error('Redis connection ended'));
      };
      connection.once('ready', onReady);
      connection.once('end', onEnd);
    });
  }

  private queueOf(consumer: string, connection: RedisClient): Queue {
    let queue = this.queues.get(consumer);
    if (!queue) {
      const name = consumerQueueName(consumer);
      queue = new Queue(name, { connection, prefix: queuePrefix(this.config.redisPrefix, name, this.config.redisTopology.mode === 'cluster') });
      queue.on('error', () => undefined);
      this.queues.set(consumer, queue);
    }
    return queue;
  }

  /** Closes the consumer queues and the shared connection (a new one is made on the next pass). */
  private async closeProducers(): Promise<void> {
    const queues = [...this.queues.values()];
    const connection = this.connection;
    this.queues.clear();
    this.connection = null;
    await Promise.all(queues.map((queue) => within(queue.close(), 2000).catch(() => undefined)));
    connection?.disconnect();
  }

  /** One scheduled pass; answers the pause before the next one. Never throws (failures back off). */
  private async tick(): Promise<number> {
    let delay = this.settings.intervalMs;
    try {
      const batch = await this.relayBatch();
      if (batch.error !== undefined) {
        delay = this.failed('Outbox relay could not enqueue; rows stay in the outbox', batch.error, batch.failed.length);
      } else {
        if (this.consecutiveFailures > 0) this.logger.log({ failures: this.consecutiveFailures }, 'Outbox relay recovered');
        this.consecutiveFailures = 0;
        if (batch.relayed.length > 0) this.logger.debug({ relayed: batch.relayed.length }, 'Outbox rows relayed');
        if (this.backlog) delay = 0; // a partition filled its batch: keep going
      }
    } catch (error) {
      delay = this.failed('Outbox relay pass failed (database)', error, 0);
    }
    return delay;
  }

  /** Records a failed pass and returns the backoff before the next one. */
  private failed(message: string, error: unknown, rows: number): number {
    this.consecutiveFailures += 1;
    const backoff = Math.min(this.settings.intervalMs * 2 ** Math.min(this.consecutiveFailures, 16), this.settings.maxBackoffMs);
    this.logger.warn(
      { err: error instanceof Error ? error.message : String(error), rows, failures: this.consecutiveFailures, retryInMs: backoff },
      message,
    );
    return backoff;
  }
}
