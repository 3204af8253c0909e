import { nextRetryDelayMs } from './retry-schedule';

/** Internal state of a delivery (column `webhooks.deliveries.status`). */
export type DeliveryState = 'pending' | 'retrying' | 'succeeded' | 'failed';

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
}

/** The outcome of an attempt: the delivery's new state and, when it goes on, when the next attempt is due. */
export interface AttemptDecision {
  status: DeliveryState;
  /** `HTTP <status>` or the network error; null on success. */
  error: string | null;
  /** Due time of the next attempt (status `retrying`), else null. */
  nextAttemptAt: Date | null;
  /** Wait before the next attempt in milliseconds (status `retrying`), else null. */
  retryDelayMs: number | null;
}

/** True for a 2xx answer. A 3xx is a failure: redirects are never followed. */
export function isSuccess(answer: ReceiverAnswer): boolean {
  return answer.status !== null && answer.status >= 200 && answer.status < 300;
}

/**
 * Decides the outcome of attempt `attempt` (1-based) answered by `answer` at `now`: 2xx → `succeeded`;
 * target refused → `failed`; otherwise `retrying` after the retry schedule's wait (`baseMs`, jitter from
 * `random`), or `failed` after the last attempt (12).
 */
export function decideAttempt(attempt: number, answer: ReceiverAnswer, now: Date, baseMs: number, random: () => number = Math.random): AttemptDecision {
  if (isSuccess(answer)) return { status: 'succeeded', error: null, nextAttemptAt: null, retryDelayMs: null };
  const error = answer.error ?? `HTTP ${answer.status}`;
  if (answer.refused) return { status: 'failed', error, nextAttemptAt: null, retryDelayMs: null };
  const delay = nextRetryDelayMs(attempt, baseMs, random);
  if (delay === null) return { status: 'failed', error, nextAttemptAt: null, retryDelayMs: null };
  return { status: 'retrying', error, nextAttemptAt: new Date(now.getTime() + delay), retryDelayMs: delay };
}
