import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WebhookDeliveryScheduler } from '../../ports/webhook-delivery.scheduler.port';
import { QueueWebhookDeliveryCommand } from './queue-webhook-delivery.command';

/** Queues the requested delivery job (a job id already queued adds nothing, so a replayed event is harmless). */
@CommandHandler(QueueWebhookDeliveryCommand)
export class QueueWebhookDeliveryHandler implements ICommandHandler<QueueWebhookDeliveryCommand> {
  constructor(private readonly scheduler: WebhookDeliveryScheduler) {}

  async execute({ request }: QueueWebhookDeliveryCommand): Promise<void> {
    await this.scheduler.schedule([request]);
  }
}
