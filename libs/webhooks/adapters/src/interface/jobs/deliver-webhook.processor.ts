import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Job } from 'bullmq';
import { asAccountId } from '@leadflow/shared-kernel';
import { eventLogFields, STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';
import { AttemptOutcome, AttemptWebhookDeliveryCommand, WebhookDeliverySettings } from '@leadflow/webhooks-core';
import { DeliverWebhookJob, WEBHOOK_DELIVERY_QUEUE, webhookBackoffStrategy, WebhookRetryError } from './webhook-delivery.job';

/**
 * One delivery job = one delivery and its attempts. Each run dispatches {@link AttemptWebhookDeliveryCommand};
 * when the delivery goes on `retrying` the job throws a {@link WebhookRetryError} with the schedule's
 * wait, and BullMQ retries the job after it (`attempts` + the custom backoff strategy set here). An error
 * of the attempt itself (PostgreSQL, Redis) is retried after the lease the run may have left.
 * Concurrency 32: attempts mostly wait on the network. Each attempt writes one `info` line, `Webhook
 * delivery attempt`, with `request_id`, `account_id`, `event_id` (issue 17, item 4), `delivery_id`, the
 * attempt number and its result.
 */
@Processor(WEBHOOK_DELIVERY_QUEUE, { ...STALLED_JOB_SETTINGS, concurrency: 32, settings: { backoffStrategy: webhookBackoffStrategy } })
export class DeliverWebhookProcessor extends WorkerHost {
  private readonly logger = new Logger(DeliverWebhookProcessor.name);

  constructor(
    private readonly commands: CommandBus,
    private readonly settings: WebhookDeliverySettings,
  ) {
    super();
  }

  async process(job: Job<DeliverWebhookJob>): Promise<AttemptOutcome> {
    let outcome: AttemptOutcome;
    try {
      outcome = await this.commands.execute(new AttemptWebhookDeliveryCommand(asAccountId(job.data.accountId), job.data.deliveryId));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new WebhookRetryError(this.settings.leaseMs + 1000, `Webhook attempt interrupted: ${message}`);
    }
    const { accountId, deliveryId, eventId, requestId } = job.data;
    this.logger.log(
      {
        ...eventLogFields({ id: eventId ?? null, accountId, requestId: requestId ?? null }),
        delivery_id: deliveryId,
        ...(outcome.result === 'skipped' ? { result: 'skipped', reason: outcome.reason } : { result: outcome.result, attempt: outcome.attempt, response_status: outcome.responseStatus }),
      },
      'Webhook delivery attempt',
    );
    if (outcome.result === 'retrying') {
      throw new WebhookRetryError(outcome.retryDelayMs ?? 1000, `Attempt ${outcome.attempt} failed (${outcome.error}); next attempt at ${outcome.nextAttemptAt?.toISOString()}`);
    }
    return outcome;
  }
}
