import { Module } from '@nestjs/common';
import { ConversationsController } from './interface/http/conversations.controller';
import { EmailsController } from './interface/http/emails.controller';
import { MessagingCoreModule } from './messaging-core.module';

/**
 * Messaging for the api app: senders (provisioning command, default-sender query), the
 * outgoing-email path's published command and query (QueueEmailCommand, ListOutgoingEmailsQuery),
 * `/v1/emails` (send, email threads) and `/v1/conversations` (read-only chat threads, seeded by
 * SeedConversationsCommand); handlers and ports from MessagingCoreModule. Delivery runs in the worker
 * (MessagingJobsModule).
 */
@Module({
  imports: [MessagingCoreModule],
  controllers: [EmailsController, ConversationsController],
})
export class MessagingHttpModule {}
