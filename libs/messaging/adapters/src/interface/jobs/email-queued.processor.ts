import { InjectQueue, Processor } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { DomainError, isUuid } from '@leadflow/shared-kernel';
import { AppConfig, consumerQueueName, IntegrationEventConsumer, IntegrationEventJob, STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';
import { EmailQueuedPayload, MESSAGING_EVENTS } from '@leadflow/messaging-contracts';
import { DELIVER_EMAIL_JOB, DeliverEmailJob, EMAIL_DELIVERY_QUEUE, emailDeliveryJobOptions, OUTGOING_EMAILS_CONSUMER } from './email-delivery.job';

/**
 * Consumer of `email_queued` (outbox → relay batch → here): schedules the email's delivery job. Adding
 * it twice (an event delivered again) is harmless: the job id is the email id, and a delivery job for an
 * email already sent does nothing. An event naming no email is rejected for good (`invalid_event`).
 */
@Processor(consumerQueueName(OUTGOING_EMAILS_CONSUMER), { ...STALLED_JOB_SETTINGS })
export class EmailQueuedProcessor extends IntegrationEventConsumer {
  constructor(
    @InjectQueue(EMAIL_DELIVERY_QUEUE) private readonly deliveries: Queue<DeliverEmailJob>,
    private readonly config: AppConfig,
  ) {
    super();
  }

  protected async handle(event: IntegrationEventJob): Promise<{ emailId: string } | { ignored: string }> {
    if (event.type !== MESSAGING_EVENTS.emailQueued) return { ignored: event.type };
    const payload = event.payload as Partial<EmailQueuedPayload>;
    if (!isUuid(payload.email_id) || !isUuid(event.accountId)) throw new DomainError('invalid_event', `email_queued ${event.id} names no email`);
    const priority = typeof payload.priority === 'number' ? payload.priority : 1;
    await this.deliveries.add(
      DELIVER_EMAIL_JOB,
      { accountId: event.accountId, emailId: payload.email_id, eventId: event.id, requestId: event.requestId },
      emailDeliveryJobOptions(payload.email_id, priority, this.config.emailRetryDelayMs),
    );
    return { emailId: payload.email_id };
  }
}
