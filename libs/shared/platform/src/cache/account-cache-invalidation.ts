import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Cluster } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../config/app-config';
import { RedisConnection } from '../redis/redis.connection';
import { RedisClient } from '../redis/redis-topology';

/**
 * What a per-account cache holds, named in invalidation messages:
 * - `auth`: resolved API keys (scopes, expiry, revocation) and the account's features, plan and terms;
 * - `config`: what lead capture and the other hot paths read per account (Systems, pipelines and stages,
 *   custom-field definitions, tags, sales reps).
 */
export type CacheTopic = 'auth' | 'config';

type Listener = (accountId: string | null) => void;

/**
 * Cross-process invalidation of the per-account caches (issue 11, items 1 and 3), over Redis pub/sub on
 * the channel `<REDIS_PREFIX>:cache-invalidation`, message `<topic> <account_id>`.
 *
 * - A write to cached data calls {@link invalidate} after its transaction committed (the unit of work's
 *   `afterCommit`); every process, the writer included, evicts that account's entries of that topic,
 *   typically within a few milliseconds (the contract: within 1 second).
 * - Messages published while a subscriber is disconnected are lost, so a subscriber that connects or
 *   reconnects first clears everything ({@link Listener} called with `null`), and a cache is only
 *   trusted while the subscription is up ({@link trusted}): with Redis unreachable, reads go to
 *   PostgreSQL every time. Caches also expire entries after a TTL of at most 60 s, a last safety net.
 */
@Injectable()
export class AccountCacheInvalidation implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('CacheInvalidation');
  private readonly listeners = new Map<CacheTopic, Set<Listener>>();
  private subscriber: RedisClient | null = null;
  private subscribed = false;
  readonly channel: string;

  constructor(
    private readonly redis: RedisConnection,
    config: AppConfig,
  ) {
    this.channel = `${config.redisPrefix}:cache-invalidation`;
  }

  /** True while this process receives invalidations: only then may a cache answer from memory. */
  get trusted(): boolean {
    return this.subscribed;
  }

  onModuleInit(): void {
    const client = this.redis.client;
    // On a cluster PUBLISH reaches every node, so one subscription on any node hears every process.
    const subscriber =
      client instanceof Cluster
        ? client.duplicate([], { lazyConnect: true, enableOfflineQueue: true, redisOptions: { ...client.options.redisOptions, maxRetriesPerRequest: null } })
        : client.duplicate({ lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined);
    if (subscriber instanceof Cluster) {
      // A node leaving (failover, crash) may have carried the subscription; ioredis subscribes again on
      // another node, and what was published meanwhile is lost: forget every account, as on a reconnect.
      subscriber.on('-node', () => {
        if (this.subscribed) this.emitAll(null);
      });
    }
    subscriber.on('close', () => {
      if (this.subscribed) this.logger.warn('Cache invalidation channel lost: caches bypassed until it is back');
      this.subscribed = false;
    });
    subscriber.on('ready', () => {
      // ioredis re-subscribes on reconnect; what was published meanwhile is lost, so start from empty caches.
      subscriber
        .subscribe(this.channel)
        .then(() => {
          this.emitAll(null);
          this.subscribed = true;
        })
        .catch((error: unknown) => this.logger.warn({ err: error }, 'Cache invalidation subscribe failed'));
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const [topic, accountId] = message.split(' ');
      if ((topic === 'auth' || topic === 'config') && accountId) this.emit(topic, accountId);
    });
    subscriber.connect().catch(() => undefined);
  }

  /** Registers a cache's eviction; `null` means "forget every account". */
  listen(topic: CacheTopic, listener: Listener): void {
    const set = this.listeners.get(topic) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(topic, set);
  }

  /**
   * Evicts `accountId`'s `topic` entries in this process at once and in every other process through
   * Redis. Never throws: if Redis is unreachable the other processes' subscriptions are down too, and
   * they clear their caches when they reconnect.
   */
  async invalidate(topic: CacheTopic, accountId: string): Promise<void> {
    this.emit(topic, accountId);
    await this.redis.client.publish(this.channel, `${topic} ${accountId}`).then(
      () => undefined,
      (error: unknown) => this.logger.warn({ err: error, topic, accountId }, 'Cache invalidation not published'),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscribed = false;
    const subscriber = this.subscriber;
    if (!subscriber) return;
    // An app closed right after it started finds the subscriber still connecting: quitting then fails its
    // ready check, and ioredis answers that with a disconnect whose 2 s timer nothing clears (the socket is
    // already closed), keeping the process (a Jest worker) alive. Let the connection settle first (≤ 1 s).
    if (subscriber.status === 'connecting' || subscriber.status === 'connect') await settled(subscriber, 1000);
    await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private emit(topic: CacheTopic, accountId: string | null): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(accountId);
  }

  private emitAll(accountId: string | null): void {
    for (const topic of this.listeners.keys()) this.emit(topic, accountId);
  }
}

/** Options of an {@link AccountScopedCache}. */
export interface AccountScopedCacheOptions {
  topic: CacheTopic;
  /** Most entries kept (least recently used evicted first). */
  max: number;
  /** Entry lifetime in milliseconds (at most 60 000). */
  ttlMs: number;
}

interface Entry<T> {
  accountId: string;
  value: T;
}

/**
 * An in-process LRU cache of per-account values (`lru-cache`), evicted by {@link AccountCacheInvalidation}
 * on its topic, with a TTL. {@link get} caches by `(accountId, key)`; {@link lookup} by a key alone, the
 * account being known from the loaded value (an API key by its secret's hash). Concurrent misses of the
 * same key share one load; a load that an eviction overtook is returned but not stored. While
 * invalidations are not received (Redis down), every call loads.
 */
export class AccountScopedCache<T extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, Entry<T>>;
  private readonly keysByAccount = new Map<string, Set<string>>();
  private readonly inflight = new Map<string, Promise<T | null>>();
  /** Bumped on every eviction, so a load that started before it is not stored after it. */
  private generation = 0;

  constructor(
    private readonly invalidation: AccountCacheInvalidation,
    options: AccountScopedCacheOptions,
  ) {
    if (options.ttlMs > 60_000) throw new Error('AccountScopedCache: ttlMs is at most 60000');
    this.entries = new LRUCache<string, Entry<T>>({
      max: options.max,
      ttl: options.ttlMs,
      dispose: (entry, id) => this.unindex(entry.accountId, id),
    });
    invalidation.listen(options.topic, (accountId) => (accountId === null ? this.clear() : this.evictAccount(accountId)));
  }

  /** The account's value under `key`, from memory or else from `load`. */
  async get(accountId: string, key: string, load: () => Promise<T>): Promise<T> {
    return (await this.cached(`${accountId}\u0000${key}`, load, () => accountId)) as T;
  }

  /** The value under a key that names no account (`load` finds it; null results are not cached). */
  lookup(key: string, load: () => Promise<T | null>, accountOf: (value: T) => string): Promise<T | null> {
    return this.cached(`\u0001${key}`, load, accountOf);
  }

  evictAccount(accountId: string): void {
    this.generation += 1;
    for (const id of [...(this.keysByAccount.get(accountId) ?? [])]) this.entries.delete(id);
    this.keysByAccount.delete(accountId);
    this.inflight.clear();
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.inflight.clear();
    this.keysByAccount.clear();
  }

  private cached(id: string, load: () => Promise<T | null>, accountOf: (value: T) => string): Promise<T | null> {
    if (!this.invalidation.trusted) return load();
    const hit = this.entries.get(id);
    if (hit !== undefined) return Promise.resolve(hit.value);
    const pending = this.inflight.get(id);
    if (pending) return pending;
    const generation = this.generation;
    const loading = load()
      .then((value) => {
        if (value !== null && generation === this.generation && this.invalidation.trusted) this.store(accountOf(value), id, value);
        return value;
      })
      .finally(() => {
        if (this.inflight.get(id) === loading) this.inflight.delete(id);
      });
    this.inflight.set(id, loading);
    return loading;
  }

  private store(accountId: string, id: string, value: T): void {
    this.entries.set(id, { accountId, value });
    const keys = this.keysByAccount.get(accountId) ?? new Set<string>();
    keys.add(id);
    this.keysByAccount.set(accountId, keys);
  }

  private unindex(accountId: string, id: string): void {
    const keys = this.keysByAccount.get(accountId);
    if (!keys) return;
    keys.delete(id);
    if (keys.size === 0) this.keysByAccount.delete(accountId);
  }
}

/** Resolves once `client` is ready, ended or failed, or after `timeoutMs` (an unref'd timer). */
function settled(client: RedisClient, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done).off('end', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    client.once('ready', done).once('end', done).once('error', done);
  });
}
