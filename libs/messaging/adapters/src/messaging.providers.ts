import type { Provider } from '@nestjs/common';
import {
  ContactHistory,
  ConversationRepository,
  ConversationsReadModel,
  EmailThreadRepository,
  EmailThreadsReadModel,
  MessagingDirectory,
  OutgoingEmailRepository,
  OutgoingEmailsReadModel,
  SenderRepository,
  TestSendLedger,
} from '@leadflow/messaging-core';
import { ActivityLogContactHistory, CqrsMessagingDirectory } from './infrastructure/cqrs/cqrs-messaging-directory';
import { MESSAGING_CONVERSATION_RECORDS } from './infrastructure/persistence/conversation.record';
import { EmailThreadRecord } from './infrastructure/persistence/email-thread.record';
import { TypeOrmConversationRepository, TypeOrmConversationsReadModel } from './infrastructure/persistence/typeorm-conversations';
import { TypeOrmEmailThreadRepository, TypeOrmEmailThreadsReadModel, TypeOrmTestSendLedger } from './infrastructure/persistence/typeorm-email-threads';
import { MESSAGING_EMAIL_RECORDS } from './infrastructure/persistence/outgoing-email.record';
import { SenderRecord } from './infrastructure/persistence/sender.record';
import { TypeOrmOutgoingEmailRepository } from './infrastructure/persistence/typeorm-outgoing-email.repository';
import { TypeOrmOutgoingEmailsReadModel } from './infrastructure/persistence/typeorm-outgoing-emails.read-model';
import { TypeOrmSenderRepository } from './infrastructure/persistence/typeorm-sender.repository';

/** TypeORM records of the messaging schema. */
export const MESSAGING_RECORDS = [SenderRecord, ...MESSAGING_EMAIL_RECORDS, EmailThreadRecord, ...MESSAGING_CONVERSATION_RECORDS];

/** The ports of messaging core on PostgreSQL (api and worker alike); `UnitOfWork` and `Journal` come from PlatformModule. */
export const MESSAGING_PERSISTENCE: Provider[] = [
  { provide: SenderRepository, useClass: TypeOrmSenderRepository },
  { provide: OutgoingEmailRepository, useClass: TypeOrmOutgoingEmailRepository },
  { provide: OutgoingEmailsReadModel, useClass: TypeOrmOutgoingEmailsReadModel },
  { provide: EmailThreadRepository, useClass: TypeOrmEmailThreadRepository },
  { provide: EmailThreadsReadModel, useClass: TypeOrmEmailThreadsReadModel },
  { provide: TestSendLedger, useClass: TypeOrmTestSendLedger },
  { provide: ConversationRepository, useClass: TypeOrmConversationRepository },
  { provide: ConversationsReadModel, useClass: TypeOrmConversationsReadModel },
  { provide: MessagingDirectory, useClass: CqrsMessagingDirectory },
  { provide: ContactHistory, useClass: ActivityLogContactHistory },
];
