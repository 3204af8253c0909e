import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../config/app-config';

/**
 * The process's shared Redis client (quota counters, per-IP limits, usage counters). Keys are
 * prefixed with `AppConfig.redisPrefix` by `key()`, so tests running in parallel never collide.
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  readonly client: Redis;

  constructor(private readonly config: AppConfig) {
    // Auto-pipelining: the commands concurrent requests issue in one event-loop tick (their quota scripts)
    // leave in one socket write, a syscall per tick rather than per request.
    // disconnectTimeout: a quit or disconnect while the socket is already closed (Redis down at shutdown)
    // leaves ioredis's socket-destroy timer running with nothing to clear it; 200 ms instead of 2 s lets
    // the process (a Jest worker) exit at once. Duplicates (the cache-invalidation subscriber) inherit it.
    this.client = new Redis(config.redisUrl, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      lazyConnect: false,
      enableAutoPipelining: true,
      disconnectTimeout: 200,
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

  /** `<prefix>:<parts joined by ':'>` */
  key(...parts: string[]): string {
    return [this.config.redisPrefix, ...parts].join(':');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
