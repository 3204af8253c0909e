import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { LocalLimits, perProcessLimit } from '../local-limits';
import { LimitOutcome, quotaExceeded, RateLimits } from '../rate-limits';

/** Wrong credentials tolerated per client address and window before 429 `rate_limit_exceeded` (`limit_type` `brute_force`). */
export const FAILED_ATTEMPT_LIMITS = {
  /** Unknown, revoked or expired API keys (and missing ones) on `/v1`. */
  api_key: 30,
  /** Wrong or missing `ADMIN_TOKEN` on `/admin/v1`. */
  admin_token: 10,
  /** Wrong or missing `METRICS_TOKEN` on `GET /metrics` of the api and the worker (one budget for both). */
  metrics_token: 10,
} as const;

/** A credential whose failures are counted. */
export type Credential = keyof typeof FAILED_ATTEMPT_LIMITS;

/** Length of a failure window, from its first failure (seconds). */
export const FAILED_ATTEMPTS_WINDOW_SECONDS = 600;

/** Counter name per credential (`<prefix>:rl:<name>:600:<ip>` in Redis; the first two predate the third). */
const COUNTER: Record<Credential, string> = { api_key: 'auth_failures', admin_token: 'admin_failures', metrics_token: 'metrics_failures' };

/**
 * The brute-force limiter of every credential: failures counted per client address in fixed 600 s windows,
 * in Redis (shared by every process) or, while Redis is unreachable, in this process against its share of
 * the limit ({@link perProcessLimit} over the processes that check that credential), so the cluster never
 * admits more wrong attempts than the limit. A right credential is never counted.
 */
@Injectable()
export class FailedAttempts {
  constructor(
    private readonly limits: RateLimits,
    private readonly local: LocalLimits,
    private readonly config: AppConfig,
  ) {}

  /**
   * Processes that check `credential` and so split its limit while Redis is down: the api processes
   * (`API_PROCESSES`), plus the worker for `metrics_token` when its listener is on (`WORKER_METRICS_PORT`).
   */
  processesChecking(credential: Credential): number {
    const worker = credential === 'metrics_token' && this.config.workerMetricsPort !== null ? 1 : 0;
    return this.config.apiProcesses + worker;
  }

  /**
   * Counts one failure of `credential` from `ip`. `allowed` false once the address is past its limit (the
   * caller answers 429 {@link quotaExceeded}('brute_force', `report.resetSeconds`)), true otherwise (401).
   */
  async recordFailure(credential: Credential, ip: string): Promise<LimitOutcome> {
    const name = COUNTER[credential];
    const limit = FAILED_ATTEMPT_LIMITS[credential];
    try {
      return await this.limits.consume(name, ip, limit, FAILED_ATTEMPTS_WINDOW_SECONDS);
    } catch {
      // logged once per transition, exported and reported by /health/ready (QuotaStoreState)
      return this.local.consume(`${name}:${ip}`, limit, FAILED_ATTEMPTS_WINDOW_SECONDS, Date.now(), this.processesChecking(credential));
    }
  }

  /**
   * The check of a shared secret (operator token, metrics token) given by `ip`, `matches` telling whether it
   * was right: true when it was; false for a wrong one, counted (the caller answers 401). An address that has
   * used up its wrong attempts is refused before `matches` is looked at, so a right guess made past the limit
   * answers 429 like a wrong one.
   * @throws DomainError 429 `rate_limit_exceeded`, details `{ limit_type: 'brute_force', retry_after_seconds }`,
   *   header `Retry-After`: from the (limit + 1)th wrong attempt of the window on.
   */
  async checkSecret(credential: Exclude<Credential, 'api_key'>, ip: string, matches: boolean): Promise<boolean> {
    const spent = await this.spent(credential, ip);
    if (spent.count >= spent.limit) throw quotaExceeded('brute_force', spent.resetSeconds);
    if (matches) return true;
    const attempt = await this.recordFailure(credential, ip);
    if (!attempt.allowed) throw quotaExceeded('brute_force', attempt.report.resetSeconds);
    return false;
  }

  /** Failures already counted for `ip` in the window and the limit they are held to (Redis, else this process's share). */
  private async spent(credential: Credential, ip: string): Promise<{ count: number; limit: number; resetSeconds: number }> {
    const name = COUNTER[credential];
    const limit = FAILED_ATTEMPT_LIMITS[credential];
    try {
      return { ...(await this.limits.consumed(name, ip, FAILED_ATTEMPTS_WINDOW_SECONDS)), limit };
    } catch {
      return { ...this.local.peek(`${name}:${ip}`, Date.now()), limit: perProcessLimit(limit, this.processesChecking(credential)) };
    }
  }
}
