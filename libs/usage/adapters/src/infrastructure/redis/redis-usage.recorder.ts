import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { Clock } from '@leadflow/shared-kernel';
import { RedisConnection, RequestOutcome, UsageRecorder } from '@leadflow/shared-platform';
import { familyOf, floorHour, HOUR_MS, LatencyHistogram } from '@leadflow/usage-core';
import { COUNTER_FIELDS, USAGE_COUNTER_TTL_SECONDS, UsageRedisKeys } from './usage-redis-keys';

/** Pause between two flushes of the counters gathered in process (milliseconds). */
export const USAGE_FLUSH_INTERVAL_MS = 1_000;
/** Distinct (hour, key) counter hashes held in process at most while Redis is unreachable; further ones are dropped. */
const MAX_PENDING_HASHES = 50_000;
const WARN_INTERVAL_MS = 60_000;

/** One API key's counters hash for one UTC hour (`hour`: the hour's start). */
interface CounterSlot {
  hour: Date;
  accountId: string;
  member: string;
  counters: string;
}

/** Field increments of one counters hash (`n`, `s2`, `l:<bin>`, …). */
type Increments = Map<string, number>;

/**
 * The usage log of the request path (platform port {@link UsageRecorder}; public-api-v1 › Usage counter
 * rules), gathered in process and flushed to the Redis counters the aggregation reads at most once a
 * second (issue 11, item 2), so a request never waits for usage bookkeeping:
 *
 * - `started` (key authenticated): +1 `n` in the key's hash of the UTC hour the request started.
 * - `finished` (response sent): +1 in exactly one family (`s2`, `s4`, `s5`, or `rl` for a limiter
 *   refusal) and +1 in the latency histogram's bin (LatencyHistogram, fixed bins that add up across
 *   processes with HINCRBY), in the hash of the hour of `startedAt`, the same instant the request path
 *   gives `started`; so a request is counted in one hour whatever its duration. `status_unknown` is `n`
 *   minus the finished families: requests in flight at a flush, or whose outcome was lost.
 *
 * Each flush is one MULTI/EXEC (atomic: a hash is never counted without its index entries). Worst-case
 * error: a crash loses the counts gathered since the last flush, at most one second of requests (their
 * starts and outcomes alike); a flush that fails (Redis unreachable) keeps its counts for the next one,
 * up to {@link MAX_PENDING_HASHES} hashes. Quotas do not depend on these counters (they are consumed in
 * the request's own Redis round trip), so a lost flush can never over-admit.
 */
@Injectable()
export class RedisUsageRecorder extends UsageRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('UsageRecorder');
  /** Counters hash key → field increments not yet written. */
  private pending = new Map<string, Increments>();
  /** Hours (hour ids) and members of the hashes in {@link pending}: counters key → [hour, member]. */
  private readonly index = new Map<string, [Date, string]>();
  /** API key id → its counters hash of the hour last counted (saves building the key names per request). */
  private readonly slots = new Map<string, CounterSlot>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastWarning = 0;

  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: UsageRedisKeys,
    private readonly clock: Clock,
  ) {
    super();
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), USAGE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  started(principal: ApiKeyPrincipal, at: Date): void {
    this.add(principal, validDate(at) ?? this.clock.now(), [COUNTER_FIELDS.started]);
  }

  finished(outcome: RequestOutcome): void {
    const family = familyOf(outcome.statusCode, outcome.rateLimited);
    if (family === null) return; // 1xx/3xx: no family, stays status_unknown
    const bin = `${COUNTER_FIELDS.latencyBinPrefix}${LatencyHistogram.binOf(outcome.latencyMs)}`;
    this.add(outcome.principal, validDate(outcome.startedAt) ?? this.clock.now(), [COUNTER_FIELDS[family], bin]);
  }

  /** Writes every count gathered so far (one MULTI/EXEC); resolves once written or kept for later (never rejects). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0) return;
    this.flushing = this.write().finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  /** Lets the last counts reach Redis before the connection closes (at most 2 s). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.race([this.flush(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }

  private add(principal: ApiKeyPrincipal, at: Date, fields: string[]): void {
    try {
      const slot = this.slotOf(principal, at);
      const counters = slot.counters;
      let increments = this.pending.get(counters);
      if (!increments) {
        if (this.pending.size >= MAX_PENDING_HASHES) return this.warn(new Error('too many usage counters pending; dropping'));
        increments = new Map();
        this.pending.set(counters, increments);
        this.index.set(counters, [slot.hour, slot.member]);
      }
      for (const field of fields) increments.set(field, (increments.get(field) ?? 0) + 1);
    } catch (error) {
      this.warn(error);
    }
  }

  /** The key's counters hash for the UTC hour of `at`: kept per key until the hour changes. */
  private slotOf(principal: ApiKeyPrincipal, at: Date): CounterSlot {
    const kept = this.slots.get(principal.keyId);
    const time = at.getTime();
    // same hour as kept: no Date, no key names built (the request path's common case)
    if (kept && time - kept.hour.getTime() >= 0 && time - kept.hour.getTime() < HOUR_MS && kept.accountId === principal.accountId) return kept;
    if (this.slots.size >= MAX_PENDING_HASHES) this.slots.clear();
    const hour = floorHour(at);
    const member = this.keys.member(principal.accountId, principal.keyId);
    const slot = { hour, accountId: principal.accountId, member, counters: this.keys.counters(hour, member) };
    this.slots.set(principal.keyId, slot);
    return slot;
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    try {
      const tx = this.redis.client.multi();
      const hours = new Set<string>();
      for (const [counters, increments] of batch) {
        const [hour, member] = this.index.get(counters) as [Date, string];
        for (const [field, by] of increments) tx.hincrby(counters, field, by);
        tx.expire(counters, USAGE_COUNTER_TTL_SECONDS);
        const index = this.keys.keysOfHour(hour);
        tx.sadd(index, member);
        tx.expire(index, USAGE_COUNTER_TTL_SECONDS);
        hours.add(this.keys.hourId(hour));
      }
      for (const hour of hours) tx.sadd(this.keys.pending(), hour);
      const replies = await tx.exec();
      const failure = replies === null ? new Error('transaction aborted') : replies.find(([error]) => error)?.[0];
      if (failure) throw failure;
      for (const counters of batch.keys()) if (!this.pending.has(counters)) this.index.delete(counters);
    } catch (error) {
      this.warn(error);
      this.restore(batch);
    }
  }

  /** Puts a batch that could not be written back in front of what was gathered since. */
  private restore(batch: Map<string, Increments>): void {
    for (const [counters, increments] of this.pending) {
      const kept = batch.get(counters);
      if (!kept) {
        batch.set(counters, increments);
        continue;
      }
      for (const [field, by] of increments) kept.set(field, (kept.get(field) ?? 0) + by);
    }
    this.pending = batch;
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_INTERVAL_MS) return;
    this.lastWarning = now;
    this.logger.warn({ err: error }, 'Usage counters not recorded yet (kept for the next flush, or lost)');
  }
}

function validDate(value: unknown): Date | null {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value : null;
}
