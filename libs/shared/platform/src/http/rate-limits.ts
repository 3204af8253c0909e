import { Injectable } from '@nestjs/common';
import { DomainError } from '@leadflow/shared-kernel';
import { RedisConnection } from '../redis/redis.connection';

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

  constructor(private readonly redis: RedisConnection) {
    redis.client.defineCommand(CONSUME_BATCH_COMMAND, { lua: CONSUME_BATCH_SCRIPT });
    // The batch is this class's own pipelining: sent as it is, not wrapped in an auto-pipeline of its own.
    const ignored = redis.client.options.autoPipeliningIgnoredCommands ?? [];
    if (!ignored.includes(CONSUME_BATCH_COMMAND)) redis.client.options.autoPipeliningIgnoredCommands = [...ignored, CONSUME_BATCH_COMMAND];
    this.base = redis.key('rl');
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
    if (this.redis.client.status !== 'ready') throw new Error(`Redis connection ${this.redis.client.status}`);
    const key = this.counterKey({ name, subject, points: 0, windowSeconds });
    const [[, count], [, ttlMs]] = (await this.redis.client.pipeline().get(key).pttl(key).exec()) as [[unknown, string | null], [unknown, number]];
    return { count: Number(count ?? 0), resetSeconds: Math.max(1, Math.ceil(Number(ttlMs) / 1000)) };
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
    if (this.redis.client.status !== 'ready') return Promise.reject(new Error(`Redis connection ${this.redis.client.status}`));
    return new Promise<LimitOutcome[]>((resolve, reject) => {
      this.pending.push({ checks, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.sendPending());
    });
  }

  /** Sends the turn's requests, at most {@link MAX_BATCH_REQUESTS} per script call. */
  private sendPending(): void {
    const pending = this.pending;
    this.pending = [];
    this.scheduled = false;
    for (let start = 0; start < pending.length; start += MAX_BATCH_REQUESTS) {
      void this.send(pending.slice(start, start + MAX_BATCH_REQUESTS));
    }
  }

  private async send(batch: PendingConsumption[]): Promise<void> {
    const keys: string[] = [];
    const args: number[] = [batch.length];
    for (const { checks } of batch) {
      args.push(checks.length);
      for (const check of checks) {
        keys.push(this.counterKey(check));
        args.push(check.points, check.windowSeconds * 1000);
      }
    }
    let reply: (number | string)[];
    try {
      const client = this.redis.client as unknown as Record<typeof CONSUME_BATCH_COMMAND, (keyCount: number, ...keysAndArgs: (string | number)[]) => Promise<(number | string)[]>>;
      reply = await client[CONSUME_BATCH_COMMAND](keys.length, ...keys, ...args);
    } catch (error) {
      for (const request of batch) request.reject(error);
      return;
    }
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

  private counterKey(check: LimitCheck): string {
    return `${this.base}:${check.name}:${check.windowSeconds}:${check.subject}`;
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
