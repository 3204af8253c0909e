import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** A delivery to (re)queue for its next attempt. */
export interface DeliveryJobRequest {
  accountId: AccountId;
  deliveryId: string;
  /** Attempts already made: the job gets the remaining ones of the schedule. */
  attemptsMade: number;
  /** Job id; the delivery id for its first job. Adding an id already queued adds nothing. */
  jobId: string;
  /** The event delivered and the api request that produced it (null: none did), for the attempts' log lines (issue 17, item 4). */
  eventId?: string;
  requestId?: string | null;
  /**
   * Who asked for the job when a write did (a redelivery): the api's scheduler, which queues through the
   * outbox, gives the internal event this actor's request trace, so the attempts' log lines name the
   * request id of the redeliver call (issue 17, item 4).
   */
  requestedBy?: Actor;
}

/** State of an attempt job, as far as the sweeper cares. */
export type DeliveryJobState = 'queued' | 'running' | 'gone';

/** The delivery queue (BullMQ in production): wakes attempts up; the database holds the truth. */
export abstract class WebhookDeliveryScheduler {
  /** Queues the first or next attempt of each delivery, to run at once. */
  abstract schedule(requests: readonly DeliveryJobRequest[]): Promise<void>;

  /**
   * `queued` (waiting or delayed for a retry), `running` (taken by a worker less than `leaseMs` before
   * `now`) or `gone` (finished, failed, taken long ago by a worker that may be dead, or missing).
   */
  abstract stateOf(jobId: string, now: Date, leaseMs: number): Promise<DeliveryJobState>;
}
