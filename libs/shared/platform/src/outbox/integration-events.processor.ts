import { getQueueToken, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Job, Queue } from 'bullmq';
import { CONSUMER_JOB_OPTIONS, consumerJobId, consumerQueueName, INTEGRATION_EVENTS_QUEUE, IntegrationEventJob } from './integration-event.job';
import { OutboxSubscriptions } from './outbox-subscriptions';

/**
 * Second half of the relay, run by the worker: each job of `integration-events` is added to the
 * queue of every subscribed consumer with job id `<eventId>.<consumer>`. A retry after a partial
 * fan-out adds nothing twice. Returns the consumers reached (kept in the completed job).
 */
@Injectable()
@Processor(INTEGRATION_EVENTS_QUEUE, { concurrency: 16 })
export class IntegrationEventsFanOut extends WorkerHost {
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly subscriptions: OutboxSubscriptions,
    private readonly moduleRef: ModuleRef,
  ) {
    super();
  }

  async process(job: Job<IntegrationEventJob>): Promise<{ consumers: string[] }> {
    const event = job.data;
    const consumers = this.subscriptions.consumersOf(event.type);
    await Promise.all(
      consumers.map((subscription) =>
        this.queueOf(subscription.consumer).add(event.type, event, {
          ...CONSUMER_JOB_OPTIONS,
          ...subscription.jobOptions,
          jobId: consumerJobId(event.id, subscription.consumer),
        }),
      ),
    );
    return { consumers: consumers.map((subscription) => subscription.consumer) };
  }

  private queueOf(consumer: string): Queue {
    let queue = this.queues.get(consumer);
    if (!queue) {
      queue = this.moduleRef.get<Queue>(getQueueToken(consumerQueueName(consumer)), { strict: false });
      this.queues.set(consumer, queue);
    }
    return queue;
  }
}
