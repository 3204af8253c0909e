import { Injectable, Optional } from '@nestjs/common';
import type { Cluster } from 'ioredis';
import { DomainError } from '@leadflow/shared-kernel';
import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/env-schema';
import { RedisConnection } from '../redis/redis.connection';
import { hashSlot } from '../redis/redis-topology';
import { slotTagsPerMaster } from '../redis/redis-readiness';
import { QuotaStoreState } from './quota-store-state';

/** Headers that report a quota (RFC 9331 `RateLimit-*` and legacy `X-RateLimit-*`). */
export interface QuotaReport {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** Window length in seconds. */
  windowSeconds: number;
}

export function quotaHeaders(report: QuotaReport, now: Date): Record<string, string> {
  return {
    'RateLimit-Limit': String(report.limit),
    'RateLimit-Remaining': String(report.remaining),
    'RateLimit-Reset': String(report.resetSeconds),
    'RateLimit-Policy': `${report.limit};w=${report.windowSeconds}`,
    'X-RateLimit-Limit': String(report.limit),
    'X-RateLimit-Remaining': String(report.remaining),
    'X-RateLimit-Reset': String(Math.ceil(now.getTime() / 1000) + report.resetSeconds),
  };
}

/** Result of a limiter check: allowed or refused, with what to report. */
export interface LimitOutcome {
  allowed: boolean;
  report: QuotaReport;
}

/** One fixed-window counter to consume: `points` allowed per `windowSeconds` for `subject` under `name`. */
export interface LimitCheck {
  name: string;
  subject: string;
  points: number;
  windowSeconds: number;
  /**
   * Hash tag of the counter on a Redis Cluster (default `subject`): the checks of one request must share
   * it, since one script consumes them (the api's request checks use the calling key's account). Not part
   * of the key on a single Redis.
   */
  slot?: string;
}

/**
 * The limiters of every request of one event-loop turn, in ONE script call (issue 11, item 2): per request,
 * its counters are checked in order; each counter is incremented (its window starts with its first unit:
 * `PEXPIRE` on the first increment); the first one over its limit gives its unit back and stops that
 * request's checks, so a refusal consumes nothing and the counters after it are not touched
 * (public-api-v1 › Usage counter rules (3)). Requests are applied one after the other, in arrival order, so
 * two requests of a batch on the same counter see each other's units exactly as two separate calls would.
 *
 * KEYS: the counters of request 1, then of request 2, … ARGV: `[requests, n1, limit, window ms, …, n2, …]`.
 * Reply, per request in order: `refused index (1-based, 0 = none), count1, pttl1, …` for the counters
 * reached (all of them when none refused, else up to the refused one).
 */
const CONSUME_BATCH_SCRIPT = `
local out = {}
local key = 0
local arg = 2
for r = 1, tonumber(ARGV[1]) do
  local checks = tonumber(ARGV[arg])
  arg = arg + 1
  local at = #out + 1
  local refused = 0
  out[at] = 0
  for i = 1, checks do
    local name = KEYS[key + i]
    local limit = tonumber(ARGV[arg + 2 * i - 2])
    local window = tonumber(ARGV[arg + 2 * i - 1])
    local count = redis.call('INCR', name)
    local ttl = redis.call('PTTL', name)
    if ttl < 0 then
      redis.call('PEXPIRE', name, window)
      ttl = window
    end
    if count > limit then
      redis.call('DECR', name)
      refused = i
    end
    out[#out + 1] = count
    out[#out + 1] = ttl
    if refused > 0 then break end
  end
  out[at] = refused
  key = key + checks
  arg = arg + 2 * checks
end
return out
`;

/** Name of the batch script's command on the shared client (kept out of ioredis's auto-pipelining). */
export const CONSUME_BATCH_COMMAND = 'leadflowConsumeLimitsBatch';
/** Requests per script call at most; a larger turn is sent as several calls (same write, in order). */
export const MAX_BATCH_REQUESTS = 256;

/** One request's checks waiting for the turn's script call. */
interface PendingConsumption {
  checks: readonly LimitCheck[];
  /** The checks' counter keys, in order. */
  keys: string[];
  resolve(outcomes: LimitOutcome[]): void;
  reject(error: unknown): void;
}

/**
 * Fixed-window counters on Redis (`<prefix>:rl:<name>:<window seconds>:<subject>`, the key layout of the
 * rate-limiter-flexible counters they replace). The checks of all requests that arrive in one event-loop
 * turn are gathered and consumed by one Lua script call ({@link CONSUME_BATCH_SCRIPT}), sent at the end of
 * the turn (`setImmediate`, after the turn's I/O callbacks): one command, one socket write and one reply
 * for the turn, where ioredis's auto-pipelining built a pipeline, a command and a promise chain per request
 * (measured: its objects outlived the young generation, ~1.6 MB promoted per scavenge at 13,000 req/s,
 * 5 ms scavenges; see README › Performance). Redis errors propagate to every request of the call, at once
 * when the connection is not ready: the caller decides whether to fail open (quota) or closed (brute force).
 */
@Injectable()
export class RateLimits {
  /** `<prefix>:rl`, the start of every counter key. */
  private readonly base: string;
  /** Requests of this turn, not sent yet. */
  private pending: PendingConsumption[] = [];
  private scheduled = false;

  /**
   * @throws ConfigError (one line naming `REDIS_PREFIX`) on a cluster when the counters of one api request
   *   would not share a hash slot: their script could never run there (CROSSSLOT).
   */
  private readonly state: QuotaStoreState;

  constructor(
    private readonly redis: RedisConnection,
    @Optional() state?: QuotaStoreState,
  ) {
    this.state = state ?? new QuotaStoreState({ apiProcesses: 1 } as AppConfig); // a RateLimits built outside Nest (tests)
    redis.client.defineCommand(CONSUME_BATCH_COMMAND, { lua: CONSUME_BATCH_SCRIPT });
    // The batch is this class's own pipelining: sent as it is, not wrapped in an auto-pipeline of its own.
    const ignored = redis.client.options.autoPipeliningIgnoredCommands ?? [];
    if (!ignored.includes(CONSUME_BATCH_COMMAND)) redis.client.options.autoPipeliningIgnoredCommands = [...ignored, CONSUME_BATCH_COMMAND];
    this.base = redis.key('rl');
    const sample: LimitCheck[] = ['ip_lead_capture', 'key_events', 'key_hour'].map((name) => ({ name, subject: `${name}-subject`, points: 1, windowSeconds: 60, slot: 'account' }));
    if (redis.clustered && this.slotOf(sample.map((check) => this.counterKey(check))) === null) {
      throw new ConfigError([`REDIS_PREFIX=${JSON.stringify(redis.key(''))}: expected a prefix under which one request's counters share a hash slot (REDIS_CLUSTER_NODES is set)`]);
    }
  }

  /**
   * Whether the counters can be consumed in Redis: a script call on a probe counter, on a cluster one per
   * master (a request's counters may live on any shard), in this turn's batches. Success ends a fallback
   * (QuotaStoreState) without waiting for traffic; used by `/health/ready`. Never throws.
   */
  async probe(): Promise<boolean> {
    const tags = this.redis.clustered ? slotTagsPerMaster(this.redis.client as Cluster, this.redis.prefix) : ['probe'];
    if (tags.length === 0) return false;
    const subject = String(process.pid);
    try {
      await Promise.all(tags.map((slot) => this.consumeAll([{ name: 'ready_probe', subject, points: Number.MAX_SAFE_INTEGER, windowSeconds: 60, slot }])));
      return true;
    } catch {
      return false;
    }
  }

  /** Consumes one unit of `name` for `subject`: at most `points` per window of `windowSeconds`. */
  async consume(name: string, subject: string, points: number, windowSeconds: number): Promise<LimitOutcome> {
    const [outcome] = await this.consumeAll([{ name, subject, points, windowSeconds }]);
    return outcome as LimitOutcome;
  }

  /**
   * The units of `name` already consumed by `subject` in the current window, without consuming one
   * (one round trip: GET and PTTL pipelined): lets a caller refuse before looking at a credential.
   * Throws while Redis is not connected, like {@link consumeAll}.
   */
  async consumed(name: string, subject: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }> {
    const error = this.unavailable();
    if (error) throw error;
    const key = this.counterKey({ name, subject, points: 0, windowSeconds });
    try {
      const [[getError, count], [pttlError, ttlMs]] = (await this.redis.client.pipeline().get(key).pttl(key).exec()) as [[Error | null, string | null], [Error | null, number]];
      if (getError ?? pttlError) throw getError ?? pttlError;
      this.state.succeeded();
      return { count: Number(count ?? 0), resetSeconds: Math.max(1, Math.ceil(Number(ttlMs) / 1000)) };
    } catch (failure) {
      this.state.failed(failure);
      throw failure;
    }
  }

  /**
   * Consumes the checks in order, in the script call of this event-loop turn (one round trip shared with
   * the turn's other requests). Returns one outcome per check reached: all allowed, or the allowed ones
   * followed by the first refused (the checks after it are not consumed and have no outcome). Rejects with
   * the Redis error (at once while the connection is not ready).
   */
  consumeAll(checks: readonly LimitCheck[]): Promise<LimitOutcome[]> {
    if (checks.length === 0) return Promise.resolve([]);
    // A request never waits for Redis to come back: while the connection is down the caller decides at once
    // (quotas fail open, brute-force counters fall back to the process).
    const error = this.unavailable();
    if (error) return Promise.reject(error);
    const keys = checks.map((check) => this.counterKey(check));
    if (this.redis.clustered && this.slotOf(keys) === null) return Promise.reject(new Error(`RateLimits: the counters of one request cross hash slots (${keys.join(', ')})`));
    return new Promise<LimitOutcome[]>((resolve, reject) => {
      this.pending.push({ checks, keys, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.sendPending());
    });
  }

  /**
   * Sends the turn's requests, at most {@link MAX_BATCH_REQUESTS} per script call. On a cluster the requests
   * are grouped by hash slot first (a script's keys must share one): one call per slot per turn, each sent
   * by ioredis to the slot's master, so one shard failing over fails only its own slots' requests.
   */
  private sendPending(): void {
    const pending = this.pending;
    this.pending = [];
    this.scheduled = false;
    const groups = this.redis.clustered ? this.bySlot(pending) : [pending];
    for (const group of groups) {
      for (let start = 0; start < group.length; start += MAX_BATCH_REQUESTS) {
        void this.send(group.slice(start, start + MAX_BATCH_REQUESTS));
      }
    }
  }

  /** `pending` split by hash slot, each group in arrival order. */
  private bySlot(pending: PendingConsumption[]): PendingConsumption[][] {
    const groups = new Map<number, PendingConsumption[]>();
    for (const request of pending) {
      const slot = hashSlot(request.keys[0] as string);
      const group = groups.get(slot);
      if (group) group.push(request);
      else groups.set(slot, [request]);
    }
    return [...groups.values()];
  }

  private async send(batch: PendingConsumption[]): Promise<void> {
    const keys: string[] = [];
    const args: number[] = [batch.length];
    for (const { checks, keys: counters } of batch) {
      args.push(checks.length);
      keys.push(...counters);
      for (const check of checks) args.push(check.points, check.windowSeconds * 1000);
    }
    let reply: (number | string)[];
    try {
      const client = this.redis.client as unknown as Record<typeof CONSUME_BATCH_COMMAND, (keyCount: number, ...keysAndArgs: (string | number)[]) => Promise<(number | string)[]>>;
      reply = await client[CONSUME_BATCH_COMMAND](keys.length, ...keys, ...args);
    } catch (error) {
      this.state.failed(error);
      for (const request of batch) request.reject(error);
      return;
    }
    this.state.succeeded();
    let at = 0;
    for (const request of batch) {
      const refused = Number(reply[at++]);
      const reached = refused > 0 ? refused : request.checks.length;
      const outcomes: LimitOutcome[] = [];
      for (let index = 0; index < reached; index += 1) {
        const check = request.checks[index] as LimitCheck;
        const count = Number(reply[at++]);
        const ttlMs = Number(reply[at++]);
        const allowed = refused !== index + 1;
        outcomes.push({
          allowed,
          report: {
            limit: check.points,
            remaining: Math.max(0, check.points - (allowed ? count : count - 1)),
            resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
            windowSeconds: check.windowSeconds,
          },
        });
      }
      request.resolve(outcomes);
    }
  }

  /**
   * `<prefix>:rl:<name>:<window seconds>:<subject>` on a single Redis (the layout of the counters it
   * replaced, unchanged); `{<prefix>:<slot>}:rl:<name>:<window seconds>:<subject>` on a cluster.
   */
  private counterKey(check: LimitCheck): string {
    if (!this.redis.clustered) return `${this.base}:${check.name}:${check.windowSeconds}:${check.subject}`;
    return this.redis.slotKey(check.slot ?? check.subject, 'rl', check.name, String(check.windowSeconds), check.subject);
  }

  /** The one hash slot of `keys`, or null when they span several. */
  private slotOf(keys: string[]): number | null {
    const slots = new Set(keys.map(hashSlot));
    return slots.size === 1 ? (slots.values().next().value as number) : null;
  }

  /** The error a call gets at once while the connection is not ready (reported to the state), else null. */
  private unavailable(): Error | null {
    if (this.redis.client.status === 'ready') return null;
    const error = new Error(`Redis connection ${this.redis.client.status}`);
    this.state.failed(error);
    return error;
  }
}

/** 429 `rate_limit_exceeded` of the key's hourly quota or the brute-force guard. */
export function quotaExceeded(limitType: 'per_key' | 'brute_force', retryAfterSeconds: number): DomainError {
  return new DomainError(
    'rate_limit_exceeded',
    limitType === 'per_key'
      ? 'The hourly request quota of this API key is exhausted.'
      : 'Too many failed authentication attempts from this address.',
    { limit_type: limitType, retry_after_seconds: retryAfterSeconds },
    { headers: { 'Retry-After': String(retryAfterSeconds) } },
  );
}
