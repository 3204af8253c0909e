import type { JobsOptions } from 'bullmq';
import { COMPLETED_JOB_RETENTION } from '@leadflow/shared-platform';

/** The outbox consumer of the catalog events (its queue is `integration-events.webhooks`). */
export const WEBHOOKS_CONSUMER = 'webhooks';

/** Queue of delivery attempts: one delayed job per attempt (prefixed by QueueModule with `<REDIS_PREFIX>:bull`). */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const DELIVER_WEBHOOK_JOB = 'deliver-webhook';

export interface DeliverWebhookJob {
  accountId: string;
  deliveryId: string;
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Options of the job of attempt `attempt` of a delivery: `jobId` `<deliveryId>.<attempt>` (scheduling the
 * same attempt twice leaves one job while it is kept; the sweeper adds `.m<minute>`), `delay` until
 * `next_attempt_at`. The job's own BullMQ retries (3, 1 s exponential) cover only database or Redis
 * trouble while recording; HTTP failures are recorded and rescheduled by the delivery itself.
 */
export function deliverWebhookJobOptions(deliveryId: string, attempt: number, delayMs: number, suffix = ''): JobsOptions {
  return {
    jobId: `${deliveryId}.${attempt}${suffix}`,
    delay: Math.max(0, Math.round(delayMs)),
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: COMPLETED_JOB_RETENTION,
    removeOnFail: { age: 7 * DAY_SECONDS },
  };
}
