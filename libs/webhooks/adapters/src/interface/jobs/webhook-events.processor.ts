import { InjectQueue, Processor } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { consumerQueueName, IntegrationEventConsumer, IntegrationEventJob, toIntegrationEvent } from '@leadflow/shared-platform';
import { WebhookFanOutService } from '../../application/webhook-fan-out.service';
import { DELIVER_WEBHOOK_JOB, DeliverWebhookJob, deliverWebhookJobOptions, WEBHOOK_DELIVERY_QUEUE, WEBHOOKS_CONSUMER } from './webhook-delivery.job';

/**
 * Consumer of the catalog events (outbox → relay batch → here): creates the deliveries
 * ({@link WebhookFanOutService}) and schedules their first attempt at once. Replaying an event creates
 * nothing twice (unique (event, subscription)) and schedules nothing twice (job id `<delivery>.1`).
 * If Redis refuses the scheduling, the job fails and is retried; the sweeper also catches it.
 */
@Processor(consumerQueueName(WEBHOOKS_CONSUMER), { concurrency: 8 })
export class WebhookEventsProcessor extends IntegrationEventConsumer {
  constructor(
    private readonly fanOut: WebhookFanOutService,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly deliveries: Queue<DeliverWebhookJob>,
  ) {
    super();
  }

  /** Events are independent of each other: eight of a batch at a time. */
  protected override readonly parallelism = 8;

  protected async handle(event: IntegrationEventJob): Promise<{ deliveries: number }> {
    const scheduled = await this.fanOut.fanOut(toIntegrationEvent(event));
    if (scheduled.length > 0) {
      await this.deliveries.addBulk(
        scheduled.map((delivery) => ({
          name: DELIVER_WEBHOOK_JOB,
          data: { accountId: delivery.accountId, deliveryId: delivery.id },
          opts: deliverWebhookJobOptions(delivery.id, 1, 0),
        })),
      );
    }
    return { deliveries: scheduled.length };
  }
}
