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
 * The limiters of one request, checked in order in ONE Redis round trip (issue 11, item 2): each counter
 * is incremented (its window starts with its first unit: `PEXPIRE` on the first increment); the first
 * one over its limit gives its unit back and stops the script, so a refusal consumes nothing and the
 * counters after it are not touched (public-api-v1 › Usage counter rules (3)).
 * Reply: `{ refused index (1-based, 0 = none), count1, pttl1, count2, pttl2, ... }` for the counters reached.
 */
const CONSUME_SCRIPT = `
local refused = 0
local out = {}
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  local count = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], window)
    ttl = window
  end
  if count > limit then
    redis.call('DECR', KEYS[i])
    refused = i
  end
  out[#out + 1] = count
  out[#out + 1] = ttl
  if refused > 0 then break end
end
table.insert(out, 1, refused)
return out
`;

/**
 * Fixed-window counters on Redis (`<prefix>:rl:<name>:<window seconds>:<subject>`, the key layout of the
 * rate-limiter-flexible counters they replace), consumed by one Lua script per request. Redis errors
 * propagate, at once when the connection is not ready: the caller decides whether to fail open (quota)
 * or closed (brute force).
 */
@Injectable()
export class RateLimits {
  /** `<prefix>:rl`, the start of every counter key. */
  private readonly base: string;

  constructor(private readonly redis: RedisConnection) {
    redis.client.defineCommand('leadflowConsumeLimits', { lua: CONSUME_SCRIPT });
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
   * Consumes the checks in order in one round trip (EVALSHA). Returns one outcome per check reached: all
   * allowed, or the allowed ones followed by the first refused (the checks after it are not consumed and
   * have no outcome).
   */
  async consumeAll(checks: readonly LimitCheck[]): Promise<LimitOutcome[]> {
    if (checks.length === 0) return [];
    // A request never waits for Redis to come back: while the connection is down the caller decides at once
    // (quotas fail open, brute-force counters fall back to the process).
    if (this.redis.client.status !== 'ready') throw new Error(`Redis connection ${this.redis.client.status}`);
    const keys = checks.map((check) => this.counterKey(check));
    const args = checks.flatMap((check) => [check.points, check.windowSeconds * 1000]);
    const client = this.redis.client as unknown as {
      leadflowConsumeLimits(count: number, ...keysAndArgs: (string | number)[]): Promise<number[]>;
    };
    const reply = await client.leadflowConsumeLimits(keys.length, ...keys, ...args);
    const refused = Number(reply[0]);
    const outcomes: LimitOutcome[] = [];
    for (let index = 0; 2 * index + 2 < reply.length; index += 1) {
      const check = checks[index] as LimitCheck;
      const count = Number(reply[2 * index + 1]);
      const ttlMs = Number(reply[2 * index + 2]);
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
    return outcomes;
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
