import { parseRetryAfterSeconds } from './errors';

/** A fetch taking a `Request`, as openapi-fetch calls it. */
export type FetchLike = (request: Request) => Promise<Response>;

/** How the client retries (see {@link createRetryingFetch}). */
export interface RetryPolicy {
  /** Retries after the first attempt (0 disables retrying). */
  maxRetries: number;
  /** Longest wait accepted, in seconds: a `Retry-After` beyond it is not waited for (the error is thrown). */
  maxRetryDelaySeconds: number;
  /** First backoff step in milliseconds when the server gives no `Retry-After` (doubled at each retry, with jitter). */
  baseDelayMs: number;
  /** Waits `ms` milliseconds (tests pass a recorder). */
  sleep: (ms: number) => Promise<void>;
  /** Uniform random number in [0, 1) for the jitter (tests pass a constant). */
  random: () => number;
}

/** Methods retried without an `Idempotency-Key` (RFC 9110 §9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Header the API reads on every POST (public API v1 › Idempotency). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * True when sending `request` twice cannot duplicate its effect: an idempotent method, or a request
 * carrying an `Idempotency-Key` (the API replays the first answer for the same key and payload).
 */
export function isRetrySafe(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method.toUpperCase()) || request.headers.has(IDEMPOTENCY_KEY_HEADER);
}

/**
 * Wraps `fetchImpl` with the client's retry rules:
 *
 * - only retry-safe requests ({@link isRetrySafe}) are retried; a PATCH or a POST without
 *   `Idempotency-Key` is sent once;
 * - 503: retried after `Retry-After` when given, else after an exponential backoff with jitter
 *   (`baseDelayMs × 2^retry`, between half and all of it, at most `maxRetryDelaySeconds`);
 * - 429: retried only when the answer carries `Retry-After` (quota, per-IP limit, throttled trigger);
 *   a 429 without it is a business refusal (`subscription_limit_reached`, `test_quota_exceeded`) that
 *   waiting does not lift;
 * - a `Retry-After` longer than `maxRetryDelaySeconds` is not waited for: the answer is returned at once
 *   (the caller gets the 429 or 503 with `retry_after_seconds`);
 * - a network failure (the fetch rejects, other than an abort) is retried with backoff;
 * - every attempt sends a clone of the same `Request`: same headers (the same `Idempotency-Key`), same body.
 *
 * The last answer (or the last network error) is what the caller gets.
 */
export function createRetryingFetch(fetchImpl: FetchLike, policy: RetryPolicy): FetchLike {
  return async (request) => {
    const retrySafe = isRetrySafe(request);
    for (let retry = 0; ; retry++) {
      const canRetry = retrySafe && retry < policy.maxRetries && !request.signal?.aborted;
      let response: Response;
      try {
        response = await fetchImpl(request.clone());
      } catch (error) {
        if (!canRetry || isAbort(error)) throw error;
        await policy.sleep(backoffMs(retry, policy));
        continue;
      }
      const delayMs = canRetry ? retryDelayMs(response, retry, policy) : null;
      if (delayMs === null) return response;
      // Not awaited: cancelling a tee'd body (a cloned Response) settles only once every branch is done.
      response.body?.cancel().catch(() => undefined);
      await policy.sleep(delayMs);
    }
  };
}

/** Milliseconds to wait before retrying after `response`, or null when it must not be retried. */
function retryDelayMs(response: Response, retry: number, policy: RetryPolicy): number | null {
  if (response.status !== 429 && response.status !== 503) return null;
  const retryAfter = parseRetryAfterSeconds(response.headers.get('retry-after'), Date.now());
  if (retryAfter === null) return response.status === 503 ? backoffMs(retry, policy) : null;
  if (retryAfter > policy.maxRetryDelaySeconds) return null;
  return retryAfter * 1000;
}

function backoffMs(retry: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxRetryDelaySeconds * 1000, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling * (0.5 + policy.random() / 2));
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
