// Restart backoff of one process slot supervised by `npm start` (tools/scripts/start.mjs).

/** Delay before the first restart (ms). */
export const BACKOFF_FIRST_MS = 1_000;
/** Longest delay between a death and the restart (ms). */
export const BACKOFF_MAX_MS = 30_000;
/** A process that stayed up this long (ms) before dying is restarted after BACKOFF_FIRST_MS again. */
export const BACKOFF_RESET_AFTER_MS = 60_000;

/**
 * Exponential backoff for one slot: 1 s, 2 s, 4 s, … capped at 30 s for deaths in a row, back to
 * 1 s once a process had stayed up 60 s. `next(uptimeMs)` is called at each death with how long
 * the dead process ran (ms) and returns the delay before its restart (ms) and the number of deaths
 * in a row, this one included.
 */
export function createRestartBackoff({ firstMs = BACKOFF_FIRST_MS, maxMs = BACKOFF_MAX_MS, resetAfterMs = BACKOFF_RESET_AFTER_MS } = {}) {
  let inARow = 0;
  return {
    next(uptimeMs) {
      if (uptimeMs >= resetAfterMs) inARow = 0;
      const delayMs = Math.min(firstMs * 2 ** Math.min(inARow, 30), maxMs);
      inARow++;
      return { delayMs, inARow };
    },
  };
}
