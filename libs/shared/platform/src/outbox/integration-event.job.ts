import type { JobsOptions } from 'bullmq';
import type { Actor, IntegrationEvent } from '@leadflow/shared-kernel';

/**
 * The platform queue the outbox relay writes to: one job per outbox row, job name = event type,
 * `jobId` = event id, so enqueueing the same row twice (a relay that crashed between enqueueing and
 * marking the row) leaves one job. The worker fans each job out to the subscribed consumers' queues.
 */
export const INTEGRATION_EVENTS_QUEUE = 'integration-events';

/** What a consumer's processor receives: the outbox row, JSON-safe (`occurredAt` is ISO 8601). */
export interface IntegrationEventJob {
  id: string;
  /** Position in `platform.outbox` (bigserial as a decimal string): the order events were written in. */
  sequence: string;
  type: string;
  accountId: string;
  occurredAt: string;
  payload: Record<string, unknown>;
  actor: Actor;
}

const CONSUMER_NAME = /^[a-z][a-z0-9-]{0,62}$/;

/** Throws unless `consumer` is a kebab-case name usable in queue names and job ids. */
export function assertConsumerName(consumer: string): void {
  if (!CONSUMER_NAME.test(consumer)) {
    throw new Error(`Outbox consumer name must be kebab-case ([a-z][a-z0-9-]*): ${JSON.stringify(consumer)}`);
  }
}

/** The BullMQ queue of one consumer: `integration-events.<consumer>` (BullMQ forbids `:` in queue names). */
export function consumerQueueName(consumer: string): string {
  assertConsumerName(consumer);
  return `${INTEGRATION_EVENTS_QUEUE}.${consumer}`;
}

/**
 * Job id of an event in a consumer's queue: `<eventId>.<consumer>`. (ARCHITECTURE writes
 * `<eventId>:<consumer>`; BullMQ 6 refuses custom ids with one `:`, so the separator is a dot.)
 */
export function consumerJobId(eventId: string, consumer: string): string {
  return `${eventId}.${consumer}`;
}

/** Back from the job's JSON to the kernel's event (a `Date` for `occurredAt`). */
export function toIntegrationEvent(job: IntegrationEventJob): IntegrationEvent {
  return {
    id: job.id,
    type: job.type,
    accountId: job.accountId,
    occurredAt: new Date(job.occurredAt),
    payload: job.payload,
    actor: job.actor,
  };
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Options of the relay's jobs. Completed jobs are kept a day: a job id deduplicates only while the
 * job exists, and the relay's re-enqueue window (crash between enqueue and commit) is seconds.
 */
export const INTEGRATION_EVENT_JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: DAY_SECONDS, count: 100_000 },
  removeOnFail: { age: 7 * DAY_SECONDS },
};

/** Defaults of the fanned-out jobs; a subscription may override them (`jobOptions`). */
export const CONSUMER_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: DAY_SECONDS, count: 100_000 },
  removeOnFail: { age: 14 * DAY_SECONDS },
};
