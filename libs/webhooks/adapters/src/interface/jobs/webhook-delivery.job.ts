import type { BackoffStrategy, JobsOptions } from 'bullmq';
import { COMPLETED_JOB_RETENTION } from '@leadflow/shared-platform';
import { WEBHOOK_MAX_ATTEMPTS } from '@leadflow/webhooks-core';

/** The outbox consumer of the catalog events (its queue is `integration-events.webhooks`). */
export const WEBHOOKS_CONSUMER = 'webhooks';

/** Queue of deliveries: one job per delivery carrying its attempts (prefixed by QueueModule with `<REDIS_PREFIX>:bull`). */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const DELIVER_WEBHOOK_JOB = 'deliver-webhook';

/** Name of the custom backoff strategy of delivery jobs ({@link webhookBackoffStrategy}). */
export const WEBHOOK_BACKOFF = 'webhook-schedule';

export interface DeliverWebhookJob {
  accountId: string;
  deliveryId: string;
  /**
   * For the attempts' log lines: the event delivered and the api request that produced it (null: none
   * did); for a redelivery, its internal `webhook_delivery_requested` event and the redeliver call's
   * request. Absent on jobs the sweeper queued.
   */
  eventId?: string;
  requestId?: string | null;
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Options of a delivery job: `jobId` (the delivery id for the job the fan-out queues, so queuing it twice
 * leaves one job; the sweeper's `<delivery>.m<minute>`), `attempts` = the attempts left of the 12-step
 * schedule, `backoff` = {@link WEBHOOK_BACKOFF}: BullMQ itself runs the retries.
 */
export function deliverWebhookJobOptions(jobId: string, attemptsMade: number): JobsOptions {
  return {
    jobId,
    attempts: Math.max(1, WEBHOOK_MAX_ATTEMPTS - attemptsMade),
    backoff: { type: WEBHOOK_BACKOFF },
    removeOnComplete: COMPLETED_JOB_RETENTION,
    removeOnFail: { age: 7 * DAY_SECONDS },
  };
}

/**
 * Thrown by the delivery job to have BullMQ retry it after `delayMs`: the receiver failed and the
 * delivery is `retrying` (the delay is the schedule's, already written as `next_attempt_at`), or the
 * attempt could not be made or recorded (PostgreSQL or Redis trouble; the delay outlives the lease the
 * interrupted attempt may hold).
 */
export class WebhookRetryError extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookRetryError';
  }
}

/**
 * The custom backoff strategy of delivery jobs (the worker's `settings.backoffStrategy`): the wait
 * carried by a {@link WebhookRetryError} (the retry schedule, `base × 2^(n−1)` ±20 %, decided and stored
 * by the attempt), else 1 s doubling up to a minute for an unexpected error.
 */
export const webhookBackoffStrategy: BackoffStrategy = (attemptsMade, _type, error) => {
  if (error instanceof WebhookRetryError) return Math.max(1, Math.round(error.delayMs));
  return Math.min(60_000, 1000 * 2 ** Math.max(0, attemptsMade - 1));
};
