import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConnectionOptions, Queue, QueueOptions, Worker, WorkerOptions } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { createRedisClient, queuePrefix, RedisClient, redisUrlOptions } from '../redis/redis-topology';

/** Longest pause between two attempts of a BullMQ connection to reach Redis again (ms). */
export const BULL_RECONNECT_MAX_MS = 1000;

/**
 * Pause before the `times`-th attempt to reconnect (ms): 100 ms more per attempt, at most
 * {@link BULL_RECONNECT_MAX_MS}. BullMQ's own strategy (e^times, up to 20 s) left a worker started, or cut
 * off, during a Redis outage of 10 s or more idle for up to 20 s after Redis was back (docs/adr/0004).
 */
export function bullReconnectDelay(times: number): number {
  return Math.min(100 * times, BULL_RECONNECT_MAX_MS);
}

/**
 * BullMQ connection options of a `redis[s]://[user:pass@]host:port/db` URL: TLS with `rediss://` (the scheme
 * used to be dropped), `maxRetriesPerRequest: null` (BullMQ's requirement for workers), reconnection at
 * least every second ({@link bullReconnectDelay}).
 */
export function bullConnection(redisUrl: string) {
  return { ...redisUrlOptions(redisUrl), maxRetriesPerRequest: null, retryStrategy: bullReconnectDelay };
}

/**
 * Placeholder of the queue's name in the root `prefix` on a cluster: {@link SlottedQueue} and
 * {@link SlottedWorker} replace it, so every queue gets its own hash tag `{<prefix>:<queue>}`.
 */
export const QUEUE_NAME_PLACEHOLDER = '<queue>';

/** `prefix` with {@link QUEUE_NAME_PLACEHOLDER} replaced by `name` (unchanged without the placeholder). */
function prefixOf(prefix: string | undefined, name: string): string | undefined {
  return prefix?.split(QUEUE_NAME_PLACEHOLDER).join(name);
}

/** Shortest pause between two logged connection errors of one queue or worker (ms). */
const WORKER_ERROR_LOG_INTERVAL_MS = 10_000;

/**
 * A BullMQ `Queue` whose prefix names its own queue on a cluster (`{<prefix>:<queue>}`); plain otherwise.
 * Its connection errors (Redis down: one per reconnection attempt) are logged as a warning at most every
 * 10 s; without a listener BullMQ printed each one's stack trace to stderr.
 */
export class SlottedQueue extends Queue {
  private readonly errorLogger = new Logger('Queue');
  private lastErrorLog = 0;

  constructor(name: string, options?: QueueOptions) {
    super(name, options && { ...options, prefix: prefixOf(options.prefix, name) });
    this.on('error', (error: Error) => {
      const now = Date.now();
      if (now - this.lastErrorLog < WORKER_ERROR_LOG_INTERVAL_MS) return;
      this.lastErrorLog = now;
      this.errorLogger.warn({ err: error.message, queue: name }, 'Queue Redis error (commands wait for the reconnection)');
    });
  }
}

/**
 * A BullMQ `Worker` with {@link SlottedQueue}'s prefix rule (workers built from the root options alone),
 * and a listener for its `error` events: without one, Node throws an unhandled `error` event and the worker
 * process dies, e.g. on the `UNBLOCKED` reply a blocked `BZPOPMIN` gets when its master turns replica in a
 * cluster failover (BullMQ then waits again, on the new master). Logged as a warning at most every 10 s.
 */
export class SlottedWorker extends Worker {
  private readonly errorLogger = new Logger('QueueWorker');
  private lastErrorLog = 0;

  constructor(name: string, processor: ConstructorParameters<typeof Worker>[1], options?: WorkerOptions) {
    super(name, processor, options && { ...options, prefix: prefixOf(options.prefix, name) });
    this.on('error', (error: Error) => {
      const now = Date.now();
      if (now - this.lastErrorLog < WORKER_ERROR_LOG_INTERVAL_MS) return;
      this.lastErrorLog = now;
      this.errorLogger.warn({ err: error.message, queue: name }, 'Queue worker Redis error (BullMQ retries)');
    });
  }
}

// Every queue and processor the Nest modules build goes through the prefix rule (a no-op on a single Redis).
BullModule.queueClass = SlottedQueue;
BullModule.workerClass = SlottedWorker;

const BULL_CLUSTER_CLIENT = Symbol('BULL_CLUSTER_CLIENT');

/**
 * The process's BullMQ connection on a cluster: one ioredis `Cluster` shared by every queue and worker
 * (workers duplicate it for their blocking commands), closed after them at shutdown. Null on a single Redis,
 * where each queue and worker opens its own connection from the URL, as before.
 */
@Injectable()
export class BullClusterClient implements OnApplicationShutdown {
  constructor(@Inject(BULL_CLUSTER_CLIENT) readonly client: RedisClient | null) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client?.quit().catch(() => this.client?.disconnect());
  }
}

/** Provides the shared cluster client ({@link BullClusterClient}) to BullModule's async factory. */
@Module({
  providers: [
    {
      provide: BULL_CLUSTER_CLIENT,
      inject: [AppConfig],
      useFactory: (config: AppConfig): RedisClient | null =>
        config.redisTopology.mode === 'cluster' ? createRedisClient(config.redisTopology, { maxRetriesPerRequest: null }).on('error', () => undefined) : null,
    },
    BullClusterClient,
  ],
  exports: [BULL_CLUSTER_CLIENT],
})
class QueueClusterModule {}

/**
 * The root BullMQ options of `config`: on a single Redis the connection options of `REDIS_URL` and the
 * prefix `<REDIS_PREFIX>:bull` (today's key layout); on a cluster the shared `client` and the prefix
 * `{<REDIS_PREFIX>:<queue>}` (docs/adr/0006).
 */
export function bullRootOptions(config: AppConfig, client: RedisClient | null): { connection: ConnectionOptions; prefix: string } {
  if (config.redisTopology.mode === 'cluster') {
    if (!client) throw new Error('bullRootOptions: a cluster needs its shared client');
    return { connection: client, prefix: queuePrefix(config.redisPrefix, QUEUE_NAME_PLACEHOLDER, true) };
  }
  return { connection: bullConnection(config.redisTopology.url), prefix: queuePrefix(config.redisPrefix, '', false) };
}

/**
 * BullMQ root configuration shared by producers (api, outbox relay) and processors (worker):
 * connection from `REDIS_URL` or `REDIS_CLUSTER_NODES`, queue keys prefixed per {@link bullRootOptions}
 * (tests isolate by prefix). Contexts register their queues with `BullModule.registerQueue` in their jobs modules.
 */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          imports: [QueueClusterModule],
          inject: [AppConfig, BULL_CLUSTER_CLIENT],
          useFactory: (config: AppConfig, client: RedisClient | null) => bullRootOptions(config, client),
        }),
      ],
      exports: [BullModule],
    };
  }
}
