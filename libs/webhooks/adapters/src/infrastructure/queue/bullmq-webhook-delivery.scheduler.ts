import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { JobState, Queue } from 'bullmq';
import { DeliveryJobRequest, DeliveryJobState, WebhookDeliveryScheduler } from '@leadflow/webhooks-core';
import { DELIVER_WEBHOOK_JOB, DeliverWebhookJob, deliverWebhookJobOptions, WEBHOOK_DELIVERY_QUEUE } from '../../interface/jobs/webhook-delivery.job';

/** Job states of a job still on its way to a worker (or waiting for its backoff). */
const QUEUED: ReadonlySet<JobState | 'unknown'> = new Set<JobState | 'unknown'>(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/** {@link WebhookDeliveryScheduler} on the BullMQ queue `webhook-delivery` (worker). */
@Injectable()
export class BullMqWebhookDeliveryScheduler extends WebhookDeliveryScheduler {
  constructor(@InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<DeliverWebhookJob>) {
    super();
  }

  async schedule(requests: readonly DeliveryJobRequest[]): Promise<void> {
    if (requests.length === 0) return;
    await this.queue.addBulk(
      requests.map((r) => ({
        name: DELIVER_WEBHOOK_JOB,
        data: { accountId: r.accountId, deliveryId: r.deliveryId, ...(r.eventId ? { eventId: r.eventId, requestId: r.requestId ?? null } : {}) },
        opts: deliverWebhookJobOptions(r.jobId, r.attemptsMade),
      })),
    );
  }

  async stateOf(jobId: string, now: Date, leaseMs: number): Promise<DeliveryJobState> {
    const state = await this.queue.getJobState(jobId);
    if (QUEUED.has(state)) return 'queued';
    if (state !== 'active') return 'gone';
    const job = await this.queue.getJob(jobId);
    return job?.processedOn !== undefined && now.getTime() - job.processedOn < leaseMs ? 'running' : 'gone';
  }
}
