import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { createRedisClient, RedisClient } from './redis-topology';

/**
 * The process's shared Redis client (quota counters, per-IP limits, usage counters): an ioredis `Redis`
 * on `REDIS_URL`, or a `Cluster` on `REDIS_CLUSTER_NODES` ({@link clustered}). Keys are prefixed with
 * `AppConfig.redisPrefix` by `key()` and `slotKey()`, so tests running in parallel never collide.
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  readonly client: RedisClient;
  /** True on a Redis Cluster: keys a script or transaction touches together must share a hash tag ({@link slotKey}). */
  readonly clustered: boolean;

  constructor(private readonly config: AppConfig) {
    // Auto-pipelining: the commands concurrent requests issue in one event-loop tick (their quota scripts)
    // leave in one socket write, a syscall per tick rather than per request.
    // disconnectTimeout: a quit or disconnect while the socket is already closed (Redis down at shutdown)
    // leaves ioredis's socket-destroy timer running with nothing to clear it; 200 ms instead of 2 s lets
    // the process (a Jest worker) exit at once. Duplicates (the cache-invalidation subscriber) inherit it.
    // On a cluster a command waits at most 1 s (commandTimeout) while a shard fails over, so a request
    // falls back to in-process counting rather than hanging on a shard without a master.
    // (a partial AppConfig without a topology, built by tests, means REDIS_URL)
    const topology = config.redisTopology ?? { mode: 'single', url: config.redisUrl };
    this.clustered = topology.mode === 'cluster';
    this.client = createRedisClient(topology, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      lazyConnect: false,
      enableAutoPipelining: true,
      disconnectTimeout: 200,
      ...(this.clustered ? { commandTimeout: 1000 } : {}),
    });
    this.client.on('error', () => undefined); // reported by health checks and the callers' own errors
  }

  /**
   * Waits (at most 5 s) for the connection before the application serves, so the limiters count in Redis
   * from the first request; when Redis is down at start the process serves anyway, with the in-process
   * fallbacks, and connects when Redis comes back.
   */
  async onModuleInit(): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 5000);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.client.once('ready', done);
    });
  }

  /** `REDIS_PREFIX`: the start of every key. */
  get prefix(): string {
    return this.config.redisPrefix;
  }

  /** `<prefix>:<parts joined by ':'>` */
  key(...parts: string[]): string {
    return [this.config.redisPrefix, ...parts].join(':');
  }

  /**
   * A key that shares its hash slot with every other key of the same `tag` on a cluster:
   * `{<prefix>:<tag>}:<parts joined by ':'>`. On a single Redis the tag is left out and the key is
   * {@link key}`(...parts)`, the layout existing deployments have.
   */
  slotKey(tag: string, ...parts: string[]): string {
    return this.clustered ? `{${this.config.redisPrefix}:${tag}}:${parts.join(':')}` : this.key(...parts);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
