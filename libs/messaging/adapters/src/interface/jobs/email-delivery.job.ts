import type { JobsOptions } from 'bullmq';
import { COMPLETED_JOB_RETENTION } from '@leadflow/shared-platform';

/** The outbox consumer of `email_queued` (its queue is `integration-events.outgoing-emails`). */
export const OUTGOING_EMAILS_CONSUMER = 'outgoing-emails';

/** Queue of delivery attempts (prefixed by QueueModule with `<REDIS_PREFIX>:bull`). */
export const EMAIL_DELIVERY_QUEUE = 'email-delivery';
export const DELIVER_EMAIL_JOB = 'deliver-email';

export interface DeliverEmailJob {
  accountId: string;
  emailId: string;
  /** The `email_queued` event that scheduled the job, and the api request that queued the email (null when none did): the delivery's log lines carry them. Absent on jobs queued before issue 17. */
  eventId?: string;
  requestId?: string | null;
}

/**
 * Hand-overs per email before a transient failure fails it. With the default base delay
 * (`EMAIL_RETRY_DELAY_MS`, 30 s) the retries come after about 30 s, 1, 2, 4, 8, 16 and 32 minutes
 * (exponential, less up to 20 % jitter): a transient failure gets about an hour to clear.
 */
export const EMAIL_DELIVERY_ATTEMPTS = 8;

const DAY_SECONDS = 24 * 60 * 60;

/**
 * One delivery job per email: `jobId` = email id (enqueueing twice leaves one job while it is kept),
 * BullMQ priority = the email's (1 first), retries with exponential backoff from `retryDelayMs`.
 */
export function emailDeliveryJobOptions(emailId: string, priority: number, retryDelayMs: number): JobsOptions {
  return {
    jobId: emailId,
    priority,
    attempts: EMAIL_DELIVERY_ATTEMPTS,
    backoff: { type: 'exponential', delay: retryDelayMs, jitter: 0.2 },
    removeOnComplete: COMPLETED_JOB_RETENTION,
    removeOnFail: { age: 14 * DAY_SECONDS },
  };
}
