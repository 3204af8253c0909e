import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/** What the limiters count in: Redis (shared by every process) or this process's fallback. */
export type QuotaStoreMode = 'redis' | 'in_process';

/** A snapshot of {@link QuotaStoreState}: times in epoch ms, durations in seconds. */
export interface QuotaStoreSnapshot {
  mode: QuotaStoreMode;
  /** When the current mode began (epoch ms; the process start for the first `redis` period). */
  since: number;
  /** The error that started the fallback (message only), null while counting in Redis. */
  reason: string | null;
  /** Fallback periods entered since the process started. */
  fallbacks: number;
  /** Seconds spent in fallback since the process started, the current period included. */
  fallbackSeconds: number;
}

/**
 * Whether the quota store (the Redis counters of quotas, per-IP and per-key limits and failed credentials)
 * can count, as seen by this process's last script call (RateLimits reports every call). Never silent:
 * - the switch to in-process counting logs ONE warning naming the error and the limits the process then
 *   applies (`floor(limit / API_PROCESSES)`, at least 1), and the switch back ONE info with the fallback's
 *   duration: once per transition, never per request;
 * - `/metrics` exports `leadflow_quota_store_fallback` (1 while counting in process),
 *   `leadflow_quota_store_fallbacks_total` and `leadflow_quota_store_fallback_seconds_total`;
 * - `/health/ready` answers 503 with the check `quota_store` down while in fallback.
 */
@Injectable()
export class QuotaStoreState {
  private readonly logger = new Logger('QuotaStore');
  private mode: QuotaStoreMode = 'redis';
  private since = Date.now();
  private reason: string | null = null;
  private fallbacks = 0;
  /** Fallback milliseconds of the periods already ended. */
  private endedFallbackMs = 0;

  constructor(private readonly config: AppConfig) {}

  /** True while the limiters count in this process. */
  get degraded(): boolean {
    return this.mode === 'in_process';
  }

  /** A script call (or the readiness probe's) counted in Redis: ends a fallback, logging its duration once. */
  succeeded(now = Date.now()): void {
    if (this.mode === 'redis') return;
    const seconds = (now - this.since) / 1000;
    this.endedFallbackMs += now - this.since;
    this.mode = 'redis';
    this.since = now;
    this.reason = null;
    this.logger.log({ fallbackSeconds: Math.round(seconds * 10) / 10 }, `Quota store back: limits counted in Redis again after ${seconds.toFixed(1)} s in process`);
  }

  /** A script call failed (`error`): starts a fallback, logging it once with the limits applied meanwhile. */
  failed(error: unknown, now = Date.now()): void {
    if (this.mode === 'in_process') return;
    this.mode = 'in_process';
    this.since = now;
    this.reason = error instanceof Error ? error.message : String(error);
    this.fallbacks += 1;
    const processes = this.config.apiProcesses;
    this.logger.warn(
      { err: error, apiProcesses: processes, share: `floor(limit / ${processes}), at least 1` },
      `Quota store cannot count (${this.reason}): quotas, per-IP, per-key and credential limits counted in this process at ${processes === 1 ? 'their full limit' : `1/${processes} of each limit`} until Redis answers (readiness 503, quota_store down)`,
    );
  }

  snapshot(now = Date.now()): QuotaStoreSnapshot {
    const current = this.mode === 'in_process' ? now - this.since : 0;
    return { mode: this.mode, since: this.since, reason: this.reason, fallbacks: this.fallbacks, fallbackSeconds: (this.endedFallbackMs + current) / 1000 };
  }
}
