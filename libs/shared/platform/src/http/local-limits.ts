import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { LimitCheck, LimitOutcome } from './rate-limits';

/**
 * This process's share of a cluster-wide `limit` while Redis is down: `floor(limit / processes)`, at least 1.
 * `processes` × the share never exceeds `limit` whenever `processes` ≤ `limit` (every limit of the service
 * against any sensible `API_PROCESSES`); with more processes than units, each keeps 1 so that no credential
 * is locked out by the outage, and the cluster admits at most `processes`.
 * @throws RangeError when `limit` or `processes` is not a positive integer.
 */
export function perProcessLimit(limit: number, processes: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer (got ${limit})`);
  if (!Number.isInteger(processes) || processes < 1) throw new RangeError(`processes must be a positive integer (got ${processes})`);
  return Math.max(1, Math.floor(limit / processes));
}

/** Counters kept in memory beyond which expired windows are pruned. */
const PRUNE_ABOVE = 100_000;

/**
 * Fixed-window counters kept in this process: the fallback of every limiter (per-IP, per-key minute, hourly
 * quota, failed credentials) while Redis is unreachable. Each limit is cut to this process's share
 * ({@link perProcessLimit}) of the processes that count it, `API_PROCESSES` unless said otherwise, so the
 * processes together never admit more than the limit during an outage. Outcomes report the share as the
 * limit (`RateLimit-Limit` shows what this process admits). Windows in seconds, `now` in epoch ms.
 */
@Injectable()
export class LocalLimits {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  /** Processes that share every limit by default (`API_PROCESSES`, 1 for an app run alone). */
  readonly processes: number;

  constructor(config: AppConfig) {
    this.processes = config.apiProcesses;
  }

  /**
   * Consumes one unit of `subject` (the full counter key) against this process's share of `limit`, counted
   * by `processes` processes (default {@link processes}); a refusal consumes nothing.
   */
  consume(subject: string, limit: number, windowSeconds: number, now: number, processes = this.processes): LimitOutcome {
    const points = perProcessLimit(limit, processes);
    if (this.windows.size > PRUNE_ABOVE) this.prune(now);
    let window = this.windows.get(subject);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(subject, window);
    }
    window.count += 1;
    const allowed = window.count <= points;
    if (!allowed) window.count -= 1;
    return {
      allowed,
      report: { limit: points, remaining: Math.max(0, points - window.count), resetSeconds: secondsUntil(window.resetAt, now), windowSeconds },
    };
  }

  /**
   * {@link RateLimits.consumeAll}'s contract on this process's counters (keys laid out like Redis's):
   * in order, stopping at the first refusal, which consumes nothing.
   */
  consumeAll(checks: readonly LimitCheck[], now: number): LimitOutcome[] {
    const outcomes: LimitOutcome[] = [];
    for (const check of checks) {
      const outcome = this.consume(`${check.name}:${check.windowSeconds}:${check.subject}`, check.points, check.windowSeconds, now);
      outcomes.push(outcome);
      if (!outcome.allowed) break;
    }
    return outcomes;
  }

  /** The units counted for `subject` in its current window, none consumed (`resetSeconds` ≥ 1). */
  peek(subject: string, now: number): { count: number; resetSeconds: number } {
    const window = this.windows.get(subject);
    if (!window || window.resetAt <= now) return { count: 0, resetSeconds: 1 };
    return { count: window.count, resetSeconds: secondsUntil(window.resetAt, now) };
  }

  private prune(now: number): void {
    for (const [subject, window] of this.windows) if (window.resetAt <= now) this.windows.delete(subject);
  }
}

function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}
