import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MESSAGING_HANDLERS } from '@leadflow/messaging-core';
import { MESSAGING_PERSISTENCE, MESSAGING_RECORDS } from './messaging.providers';

/**
 * Messaging for the api app: senders (provisioning command, default-sender query) and the
 * outgoing-email path's published command and query (QueueEmailCommand, ListOutgoingEmailsQuery).
 * Delivery runs in the worker (MessagingJobsModule).
 */
@Module({
  imports: [TypeOrmModule.forFeature(MESSAGING_RECORDS)],
  providers: [...MESSAGING_HANDLERS, ...MESSAGING_PERSISTENCE],
})
export class MessagingHttpModule {}
