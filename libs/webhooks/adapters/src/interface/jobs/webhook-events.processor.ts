import { Processor } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { consumerQueueName, IntegrationEventConsumer, IntegrationEventJob, STALLED_JOB_SETTINGS, toIntegrationEvent } from '@leadflow/shared-platform';
import { asAccountId } from '@leadflow/shared-kernel';
import { FanOutWebhookEventCommand, QueueWebhookDeliveryCommand, WEBHOOK_DELIVERY_REQUESTED } from '@leadflow/webhooks-core';
import { WEBHOOKS_CONSUMER } from './webhook-delivery.job';

/**
 * Consumer of the catalog events (outbox → relay batch → here): dispatches {@link FanOutWebhookEventCommand}
 * per event (deliveries created, first attempts queued), and queues the jobs the api asked for
 * ({@link WEBHOOK_DELIVERY_REQUESTED}, e.g. a redelivery). Replaying an event creates and queues nothing
 * twice. If the database or Redis fails, the job fails and is retried; the sweeper also catches it.
 */
@Processor(consumerQueueName(WEBHOOKS_CONSUMER), { ...STALLED_JOB_SETTINGS, concurrency: 8 })
export class WebhookEventsProcessor extends IntegrationEventConsumer {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  /** Events are independent of each other: eight of a batch at a time. */
  protected override readonly parallelism = 8;

  protected async handle(event: IntegrationEventJob): Promise<{ deliveries: number }> {
    if (event.type === WEBHOOK_DELIVERY_REQUESTED) {
      const { delivery_id, job_id, attempts_made } = event.payload as { delivery_id: string; job_id: string; attempts_made: number };
      // The job names this event and its request (a redelivery's redeliver call) for the attempts' log lines.
      await this.commands.execute(
        new QueueWebhookDeliveryCommand({
          accountId: asAccountId(event.accountId),
          deliveryId: delivery_id,
          jobId: job_id,
          attemptsMade: attempts_made,
          eventId: event.id,
          requestId: event.requestId,
        }),
      );
      return { deliveries: 1 };
    }
    return this.commands.execute(new FanOutWebhookEventCommand(toIntegrationEvent(event)));
  }
}
