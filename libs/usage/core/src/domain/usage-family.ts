/**
 * The families a finished request is counted in (public-api-v1 › Usage counter rules). The fifth,
 * `status_unknown`, is never recorded: it is what was started and not (yet) finished.
 */
export type FinishedFamily = 'status_2xx' | 'status_4xx' | 'status_5xx' | 'rate_limited';

/**
 * The one family of a finished request. A limiter refusal (key quota, brute force, per-IP limits)
 * is `rate_limited` whatever its status, so it is never also a 4xx; a business 429 (trigger
 * throttle, test quota, subscription cap) is an ordinary `status_4xx`. A 1xx or 3xx outcome is
 * neither a confirmed success nor an error: it gets no family and stays in `status_unknown`.
 */
export function familyOf(statusCode: number, rateLimited: boolean): FinishedFamily | null {
  if (rateLimited) return 'rate_limited';
  if (statusCode >= 200 && statusCode < 300) return 'status_2xx';
  if (statusCode >= 400 && statusCode < 500) return 'status_4xx';
  if (statusCode >= 500 && statusCode < 600) return 'status_5xx';
  return null;
}
