import { Command } from '@nestjs/cqrs';
import type { DeliveryJobRequest } from '../../ports/webhook-delivery.scheduler.port';

/**
 * Internal outbox event type by which the api asks the worker to queue a delivery job (the api holds no
 * queue): payload `{ delivery_id, job_id, attempts_made }`. Never delivered to subscriptions.
 */
export const WEBHOOK_DELIVERY_REQUESTED = 'webhook_delivery_requested';

/** The worker received a {@link WEBHOOK_DELIVERY_REQUESTED} event: queue the job it names. */
export class QueueWebhookDeliveryCommand extends Command<void> {
  constructor(readonly request: DeliveryJobRequest) {
    super();
  }
}
