import type { JobsOptions } from 'bullmq';
import { assertConsumerName } from './integration-event.job';

/** `'*'` subscribes to every event type. */
export type OutboxEventSelector = readonly string[] | '*';

export interface OutboxSubscriptionOptions {
  /** Kebab-case name of the consuming context or feature (`webhooks`, `automations`, `usage`). */
  consumer: string;
  /** Event types (`lead_created`…) the consumer receives, or `'*'`. */
  events: OutboxEventSelector;
  /** Options of the batch jobs (attempts, backoff, retention), merged over `CONSUMER_JOB_OPTIONS`. */
  jobOptions?: JobsOptions;
}

/**
 * One consumer's subscription to integration events, declared by a context's jobs module through
 * `OutboxSubscriptionModule.forConsumer(...)` and discovered by the worker's fan-out.
 */
export class OutboxSubscription {
  readonly consumer: string;
  readonly events: OutboxEventSelector;
  readonly jobOptions: JobsOptions;

  constructor(options: OutboxSubscriptionOptions) {
    assertConsumerName(options.consumer);
    if (options.events !== '*' && options.events.length === 0) {
      throw new Error(`Outbox consumer ${options.consumer} subscribes to no event type`);
    }
    this.consumer = options.consumer;
    this.events = options.events === '*' ? '*' : [...options.events];
    this.jobOptions = options.jobOptions ?? {};
  }

  accepts(type: string): boolean {
    return this.events === '*' || this.events.includes(type);
  }
}
