import { Injectable } from '@nestjs/common';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
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

/**
 * Fixed-window counters on Redis with rate-limiter-flexible. A refused request gives its point back,
 * so limiter refusals never consume the quota (public-api-v1 › Usage counter rules (3)).
 */
@Injectable()
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(private readonly redis: RedisConnection) {}

  /**
   * Consumes one unit of `name` for `subject` within a window of `windowSeconds` allowing `points`.
   * Redis errors propagate (the caller decides whether to fail open).
   */
  async consume(name: string, subject: string, points: number, windowSeconds: number): Promise<LimitOutcome> {
    const limiter = this.limiter(name, points, windowSeconds);
    try {
      const result = await limiter.consume(subject, 1);
      return { allowed: true, report: this.report(points, windowSeconds, result) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      await limiter.reward(subject, 1).catch(() => undefined);
      return { allowed: false, report: this.report(points, windowSeconds, rejection) };
    }
  }

  private limiter(name: string, points: number, windowSeconds: number): RateLimiterRedis {
    const id = `${name}:${points}:${windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis.client,
        keyPrefix: this.redis.key('rl', name, String(windowSeconds)),
        points,
        duration: windowSeconds,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  private report(limit: number, windowSeconds: number, result: RateLimiterRes): QuotaReport {
    return {
      limit,
      remaining: Math.max(0, result.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
      windowSeconds,
    };
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
