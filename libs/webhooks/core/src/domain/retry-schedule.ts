/**
 * Retry policy of webhook deliveries (documented in the OpenAPI description and the README): at most
 * {@link WEBHOOK_MAX_ATTEMPTS} attempts. After failed attempt n (1-based, n < 12) the next attempt waits
 * `base × 2^(n−1)` with ±20 % jitter. With the default base (`WEBHOOK_RETRY_BASE_MS` = 120 000 ms, 2 min)
 * the nominal waits are 2, 4, 8, 16, 32, 64 min, 2 h 08, 4 h 16, 8 h 32, 17 h 04 and 34 h 08: attempt 12
 * comes about 68 hours (≈ 2.8 days) after the first, and a delivery still failing then is `failed`.
 */
export const WEBHOOK_MAX_ATTEMPTS = 12;

/** Default base delay (milliseconds), overridable with `WEBHOOK_RETRY_BASE_MS`. */
export const WEBHOOK_DEFAULT_RETRY_BASE_MS = 120_000;

/** Largest jitter applied to a wait, as a fraction (±20 %). */
export const WEBHOOK_RETRY_JITTER = 0.2;

/**
 * Wait before the attempt that follows failed attempt `attempt` (1-based), in milliseconds, or null when
 * `attempt` was the last one. `baseMs` scales the schedule; `random` in [0, 1) draws the jitter.
 */
export function nextRetryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number | null {
  if (attempt >= WEBHOOK_MAX_ATTEMPTS) return null;
  const nominal = baseMs * 2 ** (attempt - 1);
  const jitter = 1 + WEBHOOK_RETRY_JITTER * (2 * random() - 1);
  return Math.max(1, Math.round(nominal * jitter));
}
