import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job, Queue } from 'bullmq';
import { Clock } from '@leadflow/shared-kernel';
import { AttemptOutcome, WebhookDeliveryService } from '../../application/webhook-delivery.service';
import { DELIVER_WEBHOOK_JOB, DeliverWebhookJob, deliverWebhookJobOptions, WEBHOOK_DELIVERY_QUEUE } from './webhook-delivery.job';

/**
 * Runs one delivery attempt per job ({@link WebhookDeliveryService}) and, when the delivery goes on
 * `retrying`, schedules the next attempt as a delayed job (`<delivery>.<attempt>`, delay until
 * `next_attempt_at`). A lost job (Redis outage, worker killed) is re-created by the sweeper from the
 * database. Concurrency 32: attempts mostly wait on the network.
 */
@Processor(WEBHOOK_DELIVERY_QUEUE, { concurrency: 32 })
export class DeliverWebhookProcessor extends WorkerHost {
  private readonly logger = new Logger(DeliverWebhookProcessor.name);

  constructor(
    private readonly deliveries: WebhookDeliveryService,
    @InjectQueue(WEBHOOK_DELIVERY_QUEUE) private readonly queue: Queue<DeliverWebhookJob>,
    private readonly clock: Clock,
  ) {
    super();
  }

  async process(job: Job<DeliverWebhookJob>): Promise<AttemptOutcome> {
    const { accountId, deliveryId } = job.data;
    const outcome = await this.deliveries.attempt(accountId, deliveryId);
    if (outcome.result === 'retrying' && outcome.nextAttemptAt) {
      await this.queue
        .add(DELIVER_WEBHOOK_JOB, job.data, deliverWebhookJobOptions(deliveryId, outcome.attempt + 1, outcome.nextAttemptAt.getTime() - this.clock.now().getTime()))
        .catch((error: unknown) => {
          // The row says `retrying` with its due time: the sweeper schedules it once Redis answers.
          this.logger.warn({ deliveryId, err: error instanceof Error ? error.message : String(error) }, 'Could not schedule the next webhook attempt');
        });
    }
    return outcome;
  }
}
