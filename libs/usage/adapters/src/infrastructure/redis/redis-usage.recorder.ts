import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { ChainableCommander } from 'ioredis';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { Clock } from '@leadflow/shared-kernel';
import { RedisConnection, RequestOutcome, UsageRecorder } from '@leadflow/shared-platform';
import { familyOf, floorHour, LatencyHistogram } from '@leadflow/usage-core';
import { COUNTER_FIELDS, USAGE_COUNTER_TTL_SECONDS, UsageRedisKeys } from './usage-redis-keys';

/** A recorded start waiting for its outcome. */
interface PendingStart {
  hour: Date;
  /** Resolves true once the start is in Redis, false if its write failed (never rejects). */
  recorded: Promise<boolean>;
}

/** Writes in flight beyond which new ones are dropped (Redis unreachable: bound the memory held). */
const MAX_WRITES_IN_FLIGHT = 10_000;
const WARN_INTERVAL_MS = 60_000;

/**
 * The usage log of the request path (platform port {@link UsageRecorder}) on Redis counters, read by
 * the aggregation (public-api-v1 › Usage counter rules):
 *
 * - `started` (key authenticated): +1 `n` in the key's hash of the UTC hour the request started.
 * - `finished` (response sent): +1 in exactly one family (`s2`, `s4`, `s5`, or `rl` for a limiter
 *   refusal) and +1 in the latency bin, in the hash of the same hour as its start, so a request is
 *   counted in one hour whatever its duration. `status_unknown` is `n` minus the finished families:
 *   requests in flight, or whose outcome could not be written.
 *
 * Each call is one MULTI/EXEC (a single round trip, atomic: a hash is never counted without its
 * index entries), sent after the call returns; nothing touches PostgreSQL and nothing throws. The
 * outcome finds its start through the principal object the guard passes to both calls (one per
 * request; if a cache ever shares it, starts are matched first-in first-out, which keeps every
 * hour's totals right). If the start's write failed, the outcome's write counts the start too, so
 * the request is counted once in its family rather than lost.
 */
@Injectable()
export class RedisUsageRecorder extends UsageRecorder implements BeforeApplicationShutdown {
  private readonly logger = new Logger('UsageRecorder');
  private readonly starts = new WeakMap<object, PendingStart[]>();
  /** Writes not settled yet (an outcome's may be waiting for its start's reply). */
  private readonly pending = new Set<Promise<unknown>>();
  private writesInFlight = 0;
  private lastWarning = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: UsageRedisKeys,
    private readonly clock: Clock,
  ) {
    super();
  }

  started(principal: ApiKeyPrincipal, at: Date): void {
    try {
      const hour = floorHour(at);
      const recorded = this.write(principal, hour, (tx, counters) => tx.hincrby(counters, COUNTER_FIELDS.started, 1));
      this.track(recorded);
      const queue = this.starts.get(principal);
      if (queue) queue.push({ hour, recorded });
      else this.starts.set(principal, [{ hour, recorded }]);
    } catch (error) {
      this.warn(error);
    }
  }

  finished(outcome: RequestOutcome): void {
    try {
      const { principal } = outcome;
      const start = this.takeStart(principal);
      const hour = start?.hour ?? floorHour(validDate(outcome.startedAt) ?? this.clock.now());
      const family = familyOf(outcome.statusCode, outcome.rateLimited);
      const startRecorded = start ? start.recorded : Promise.resolve(false);
      const written = startRecorded.then((startWritten) => {
        if (startWritten && family === null) return; // 1xx/3xx: no family, stays status_unknown
        return this.write(principal, hour, (tx, counters) => {
          if (!startWritten) tx.hincrby(counters, COUNTER_FIELDS.started, 1);
          if (family === null) return;
          tx.hincrby(counters, COUNTER_FIELDS[family], 1);
          tx.hincrby(counters, `${COUNTER_FIELDS.latencyBinPrefix}${LatencyHistogram.binOf(outcome.latencyMs)}`, 1);
        });
      }).catch((error: unknown) => this.warn(error));
      this.track(written);
    } catch (error) {
      this.warn(error);
    }
  }

  /** Resolves once every usage write issued so far has settled (never rejects). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Lets the outcomes of the last requests reach Redis before the connection closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.race([this.flush(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }

  private track(write: Promise<unknown>): void {
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  private takeStart(principal: object): PendingStart | undefined {
    const queue = this.starts.get(principal);
    const start = queue?.shift();
    if (queue && queue.length === 0) this.starts.delete(principal);
    return start;
  }

  /** One MULTI/EXEC: the counter updates, the hour's key index, the pending hours, expiries. */
  private write(principal: ApiKeyPrincipal, hour: Date, update: (tx: ChainableCommander, counters: string) => void): Promise<boolean> {
    if (this.writesInFlight >= MAX_WRITES_IN_FLIGHT) {
      this.warn(new Error('too many usage writes in flight; dropping'));
      return Promise.resolve(false);
    }
    try {
      const member = this.keys.member(principal.accountId, principal.keyId);
      const counters = this.keys.counters(hour, member);
      const index = this.keys.keysOfHour(hour);
      const tx = this.redis.client.multi();
      update(tx, counters);
      tx.expire(counters, USAGE_COUNTER_TTL_SECONDS);
      tx.sadd(index, member);
      tx.expire(index, USAGE_COUNTER_TTL_SECONDS);
      tx.sadd(this.keys.pending(), this.keys.hourId(hour));
      this.writesInFlight += 1;
      return tx
        .exec()
        .then((replies) => {
          const failure = replies === null ? new Error('transaction aborted') : replies.find(([error]) => error)?.[0];
          if (failure) throw failure;
          return true;
        })
        .catch((error: unknown) => {
          this.warn(error);
          return false;
        })
        .finally(() => {
          this.writesInFlight -= 1;
        });
    } catch (error) {
      this.warn(error);
      return Promise.resolve(false);
    }
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_INTERVAL_MS) return;
    this.lastWarning = now;
    this.logger.warn({ err: error }, 'Usage counters not recorded (counted as status_unknown or lost)');
  }
}

function validDate(value: unknown): Date | null {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value : null;
}
