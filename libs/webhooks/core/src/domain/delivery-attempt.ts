import { nextRetryDelayMs } from './retry-schedule';

/** Internal state of a delivery (column `webhooks.deliveries.status`). */
export type DeliveryState = 'pending' | 'retrying' | 'succeeded' | 'failed';

/** Longest `Retry-After` honoured (ms): a larger value is capped to one hour. */
export const RETRY_AFTER_CAP_MS = 3_600_000;

/** A subscription whose attempts all failed for this long (no success in between) is disabled. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/** Statuses whose `Retry-After` is honoured (Standard Webhooks guidance). */
const RETRY_AFTER_STATUSES = new Set([429, 502, 503, 504]);

/** What the receiver (or the network) answered to one POST. */
export interface ReceiverAnswer {
  /** HTTP status, null when nothing answered (timeout, network error, refused target). */
  status: number | null;
  /** Why the attempt failed without a status (`timeout: …`, `non_public_target: …`), else null. */
  error: string | null;
  /** True when the SSRF guard refused the target (no connection made): permanent. */
  refused: boolean;
  /** Time from the start of the POST to the answer (or the failure), milliseconds. */
  durationMs: number;
  /** The first 1 KiB of the response body (UTF-8, cut on a character), null when none was read. */
  body?: string | null;
  /** `Retry-After` of the answer in milliseconds (seconds or HTTP date read by the sender), null when absent or invalid. */
  retryAfterMs?: number | null;
}

/** Why a delivery's subscription is disabled (`disabled_reason` on the webhook resource). */
export type DisabledReason = 'endpoint_gone' | 'failing_for_5_days';

/** The outcome of an attempt: the delivery's new state and, when it goes on, when the next attempt is due. */
export interface AttemptDecision {
  status: DeliveryState;
  /** `HTTP <status>` or the network error; null on success. */
  error: string | null;
  /** Due time of the next attempt (status `retrying`), else null. */
  nextAttemptAt: Date | null;
  /** Wait before the next attempt in milliseconds (status `retrying`), else null. */
  retryDelayMs: number | null;
  /** Set when this attempt disables the subscription. */
  disable?: DisabledReason | null;
}

/** True for a 2xx answer. A 3xx is a failure: redirects are never followed. */
export function isSuccess(answer: ReceiverAnswer): boolean {
  return answer.status !== null && answer.status >= 200 && answer.status < 300;
}

/**
 * Decides the outcome of attempt `attempt` (1-based) answered by `answer` at `now` (Standard Webhooks
 * guidance): 2xx → `succeeded`; target refused → `failed`; 410 Gone → `failed` and the subscription
 * disabled (`endpoint_gone`); a failure while the subscription has failed every attempt since
 * `failingSince` for 5 days → `failed` and disabled (`failing_for_5_days`); otherwise `retrying` after the
 * retry schedule's wait (`baseMs`, jitter from `random`), or, for 429/502/503/504 with `Retry-After`, after
 * that wait (capped at one hour); `failed` after the last attempt (12). A 3xx is an ordinary failure.
 */
export function decideAttempt(
  attempt: number,
  answer: ReceiverAnswer,
  now: Date,
  baseMs: number,
  random: () => number = Math.random,
  failingSince: Date | null = null,
): AttemptDecision {
  if (isSuccess(answer)) return { status: 'succeeded', error: null, nextAttemptAt: null, retryDelayMs: null, disable: null };
  const error = answer.error ?? `HTTP ${answer.status}`;
  const stop = (disable: DisabledReason | null = null): AttemptDecision => ({ status: 'failed', error, nextAttemptAt: null, retryDelayMs: null, disable });
  if (answer.refused) return stop();
  if (answer.status === 410) return stop('endpoint_gone');
  if (failingSince && now.getTime() - failingSince.getTime() >= FAILING_DISABLE_AFTER_MS) return stop('failing_for_5_days');
  let delay = nextRetryDelayMs(attempt, baseMs, random);
  if (delay === null) return stop();
  if (answer.status !== null && RETRY_AFTER_STATUSES.has(answer.status) && answer.retryAfterMs != null && answer.retryAfterMs >= 0) {
    delay = Math.max(1, Math.min(answer.retryAfterMs, RETRY_AFTER_CAP_MS));
  }
  return { status: 'retrying', error, nextAttemptAt: new Date(now.getTime() + delay), retryDelayMs: delay, disable: null };
}
