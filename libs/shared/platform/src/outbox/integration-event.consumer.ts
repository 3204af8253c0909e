import { WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import { EventInbox, InboxBatchOutcome } from './event-inbox';
import { INTEGRATION_EVENTS_QUEUE, IntegrationEventBatchJob, IntegrationEventJob } from './integration-event.job';

/**
 * Base of an outbox consumer's processor. The relay adds batch jobs (`IntegrationEventBatchJob`) to the
 * consumer's queue; this class runs `handle` once per event the consumer has not recorded in its inbox
 * yet, and records each outcome ({@link EventInbox.consume}):
 *
 * ```ts
 * @Processor(consumerQueueName('webhooks'), { concurrency: 8 })
 * export class WebhookEventsProcessor extends IntegrationEventConsumer {
 *   protected async handle(event: IntegrationEventJob) { … idempotent work for one event … }
 * }
 * ```
 *
 * `handle` throws a `DomainError` to refuse an event for good (recorded `rejected:<code>`), anything
 * else to have the batch retried with backoff (handled events are not handled again).
 */
export abstract class IntegrationEventConsumer extends WorkerHost {
  @Inject(EventInbox) private readonly inbox!: EventInbox;

  /**
   * Events of one batch handled at a time: 1 keeps outbox order; a consumer whose events do not depend
   * on each other (webhook fan-out, SMS hand-off) raises it, so a batch is not held up by one slow
   * round trip after another.
   */
  protected readonly parallelism: number = 1;

  /** Handles one event; must be idempotent (it may run again after a crash before the inbox write). */
  protected abstract handle(event: IntegrationEventJob): Promise<unknown>;

  async process(job: Job<IntegrationEventBatchJob>): Promise<InboxBatchOutcome> {
    return this.inbox.consume(consumerOfQueue(job.queueName), job.data.events, (event) => this.handle(event), this.parallelism);
  }
}

/** `integration-events.<consumer>` → `<consumer>`. */
export function consumerOfQueue(queueName: string): string {
  const prefix = `${INTEGRATION_EVENTS_QUEUE}.`;
  if (!queueName.startsWith(prefix)) throw new Error(`${queueName} is not an integration-event consumer queue`);
  return queueName.slice(prefix.length);
}
