import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MESSAGING_HANDLERS } from '@leadflow/messaging-core';
import { ConversationsController } from './interface/http/conversations.controller';
import { EmailsController } from './interface/http/emails.controller';
import { MESSAGING_PERSISTENCE, MESSAGING_RECORDS } from './messaging.providers';

/**
 * Messaging for the api app: senders (provisioning command, default-sender query), the
 * outgoing-email path's published command and query (QueueEmailCommand, ListOutgoingEmailsQuery),
 * `/v1/emails` (send, email threads) and `/v1/conversations` (read-only chat threads, seeded by
 * SeedConversationsCommand). Delivery runs in the worker (MessagingJobsModule).
 */
@Module({
  imports: [TypeOrmModule.forFeature(MESSAGING_RECORDS)],
  controllers: [EmailsController, ConversationsController],
  providers: [...MESSAGING_HANDLERS, ...MESSAGING_PERSISTENCE],
})
export class MessagingHttpModule {}
