import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { EmailTransport, MESSAGING_DELIVERY_HANDLERS, MESSAGING_HANDLERS } from '@leadflow/messaging-core';
import { MESSAGING_EVENTS } from '@leadflow/messaging-contracts';
import { NodemailerEmailTransport } from './infrastructure/mail/nodemailer-email.transport';
import { TestModeEmailTransport } from './infrastructure/mail/test-mode-email.transport';
import { DeliverEmailProcessor } from './interface/jobs/deliver-email.processor';
import { EMAIL_DELIVERY_QUEUE, OUTGOING_EMAILS_CONSUMER } from './interface/jobs/email-delivery.job';
import { EmailQueuedProcessor } from './interface/jobs/email-queued.processor';
import { MESSAGING_PERSISTENCE, MESSAGING_RECORDS } from './messaging.providers';

/**
 * Messaging for the worker app: email dispatch. Subscribes to `email_queued` (outbox consumer
 * `outgoing-emails`), which schedules one job per email on the `email-delivery` queue; its processor
 * hands the email over through nodemailer (`SMTP_URL`, or the logging transport when unset; never
 * for a sandbox account: TestModeEmailTransport) and
 * records the delivery state. Also registers the published commands, so worker-side callers (quotes,
 * automations) can queue emails. Needs QueueModule.forRoot and OutboxRelayModule.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature(MESSAGING_RECORDS),
    OutboxSubscriptionModule.forConsumer({ consumer: OUTGOING_EMAILS_CONSUMER, events: [MESSAGING_EVENTS.emailQueued] }),
    BullModule.registerQueue({ name: EMAIL_DELIVERY_QUEUE }),
  ],
  providers: [
    ...MESSAGING_HANDLERS,
    ...MESSAGING_DELIVERY_HANDLERS,
    ...MESSAGING_PERSISTENCE,
    NodemailerEmailTransport,
    { provide: EmailTransport, useClass: TestModeEmailTransport },
    EmailQueuedProcessor,
    DeliverEmailProcessor,
  ],
})
export class MessagingJobsModule {}
