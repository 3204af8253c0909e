import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { MESSAGING_EVENTS } from '@leadflow/messaging-contracts';
import { DeliverEmailProcessor } from './interface/jobs/deliver-email.processor';
import { EMAIL_DELIVERY_QUEUE, OUTGOING_EMAILS_CONSUMER } from './interface/jobs/email-delivery.job';
import { EmailQueuedProcessor } from './interface/jobs/email-queued.processor';
import { MessagingCoreModule } from './messaging-core.module';

/**
 * Messaging for the worker app: email dispatch. Subscribes to `email_queued` (outbox consumer
 * `outgoing-emails`), which schedules one job per email on the `email-delivery` queue; its processor
 * hands the email over through nodemailer (`SMTP_URL`, or the logging transport when unset; never
 * for a sandbox account: TestModeEmailTransport) and
 * records the delivery state. Handlers (the published commands included, so worker-side callers such as
 * quotes and automations can queue emails) and ports from MessagingCoreModule. Needs QueueModule.forRoot and OutboxRelayModule.
 */
@Module({
  imports: [
    MessagingCoreModule,
    OutboxSubscriptionModule.forConsumer({ consumer: OUTGOING_EMAILS_CONSUMER, events: [MESSAGING_EVENTS.emailQueued] }),
    BullModule.registerQueue({ name: EMAIL_DELIVERY_QUEUE }),
  ],
  providers: [EmailQueuedProcessor, DeliverEmailProcessor],
})
export class MessagingJobsModule {}
