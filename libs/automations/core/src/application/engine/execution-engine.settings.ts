/**
 * Tuning of the execution engine (worker). Leases and resume times are measured on PostgreSQL's
 * clock (`clock_timestamp()`), shared by every worker; business instants use the injected Clock.
 */
export abstract class ExecutionEngineSettings {
  /** How long a run owns its execution without renewing (ms); renewed every third of it. A crashed worker's run is restarted after it expires. */
  abstract readonly leaseMs: number;
  /** Pause between two sweeps for stale executions (ms). */
  abstract readonly sweepIntervalMs: number;
  /** A `pending` execution older than this, or a `waiting` one this late, is handed to the queue again (ms). */
  abstract readonly staleGraceMs: number;
  /** Restarts after which an execution is `failed` (`retries_exhausted`). */
  abstract readonly maxRetries: number;
}

/** Production defaults: 60 s lease, sweep every 15 s, 60 s grace, 5 restarts. */
export class DefaultExecutionEngineSettings extends ExecutionEngineSettings {
  readonly leaseMs: number;
  readonly sweepIntervalMs: number;
  readonly staleGraceMs: number;
  readonly maxRetries: number;

  constructor(overrides: Partial<Pick<ExecutionEngineSettings, 'leaseMs' | 'sweepIntervalMs' | 'staleGraceMs' | 'maxRetries'>> = {}) {
    super();
    this.leaseMs = overrides.leaseMs ?? 60_000;
    this.sweepIntervalMs = overrides.sweepIntervalMs ?? 15_000;
    this.staleGraceMs = overrides.staleGraceMs ?? 60_000;
    this.maxRetries = overrides.maxRetries ?? 5;
  }
}
