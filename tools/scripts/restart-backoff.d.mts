export declare const BACKOFF_FIRST_MS: number;
export declare const BACKOFF_MAX_MS: number;
export declare const BACKOFF_RESET_AFTER_MS: number;

export interface RestartBackoff {
  /** At a death, with the dead process's uptime (ms): the delay before the restart (ms) and the deaths in a row. */
  next(uptimeMs: number): { delayMs: number; inARow: number };
}

export declare function createRestartBackoff(options?: { firstMs?: number; maxMs?: number; resetAfterMs?: number }): RestartBackoff;
