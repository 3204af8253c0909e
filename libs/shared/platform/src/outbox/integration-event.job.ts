import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { Actor, IntegrationEvent } from '@leadflow/shared-kernel';

/** Prefix of every consumer queue: `integration-events.<consumer>`. */
export const INTEGRATION_EVENTS_QUEUE = 'integration-events';

/** One event as a consumer's handler receives it: the outbox row, JSON-safe (`occurredAt` is ISO 8601). */
export interface IntegrationEventJob {
  id: string;
  /** Position in `platform.outbox` (bigserial as a decimal string): the order events were written in. */
  sequence: string;
  type: string;
  accountId: string;
  occurredAt: string;
  payload: Record<string, unknown>;
  /** The actor as the outbox row holds it; carries the row's request trace (request-trace.ts), so writes made with it are traced too. */
  actor: Actor;
  /** Id of the api request whose write produced the event (`platform.outbox.request_id`), null when none did. */
  requestId: string | null;
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

/** An event as a batch job names it: its id and type (the row itself stays in `platform.outbox`). */
export interface IntegrationEventRef {
  id: string;
  type: string;
}

/**
 * What the relay adds to a consumer's queue: the consumer's share of one relay pass, in outbox order
 * (at most `OUTBOX_RELAY_BATCH_SIZE` events), as references. The consumer reads the events from
 * `platform.outbox` (one statement per batch), so Redis holds about 60 bytes per waiting event whatever
 * the payloads' size, even with a backlog. Job name `events`.
 */
export interface IntegrationEventBatchJob {
  events: IntegrationEventRef[];
}

/** Name of the batch jobs in a consumer queue. */
export const INTEGRATION_EVENT_BATCH_JOB = 'events';

/**
 * Job id of a batch: `<consumer>.<sha1 of its event ids>`. The same events for the same consumer give
 * the same id, so a relay that enqueued and then failed to commit adds nothing twice on its next pass
 * while the first job is kept; anything else that repeats (a different batch holding an event again, a
 * reconciler pass) is caught by the consumer's inbox. BullMQ 6 refuses custom ids with one `:`, hence
 * the dot.
 */
export function consumerBatchJobId(consumer: string, eventIds: readonly string[], origin: 'relay' | 'reconcile' = 'relay'): string {
  const digest = createHash('sha1').update(eventIds.join(',')).digest('hex');
  return `${origin === 'relay' ? '' : 'r-'}${consumer}.${digest}`;
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
    requestId: job.requestId ?? null,
  };
}

const DAY_SECONDS = 24 * 60 * 60;

/**
 * How long BullMQ keeps a completed job, for every queue of the worker: an hour, at most 10,000 per
 * queue. Nothing relies on a completed job's id for longer: consumers dedupe with their inbox, webhook
 * deliveries, emails and automation executions with their rows' state in PostgreSQL (issue 11: Redis
 * memory flat under a sustained load).
 */
export const COMPLETED_JOB_RETENTION = { age: 60 * 60, count: 10_000 } as const;

/**
 * Defaults of the batch jobs; a subscription may override them (`jobOptions`). At most 100 completed
 * batches are kept per queue, ten minutes: the inbox, not BullMQ's job ids, is what keeps an event from being handled twice,
 * and a kept job id only has to cover a relay's enqueue-then-rollback (seconds). Failed jobs are kept
 * 14 days for inspection; their events are re-enqueued by the reconciler.
 */
export const CONSUMER_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 10 * 60, count: 100 },
  removeOnFail: { age: 14 * DAY_SECONDS },
};
