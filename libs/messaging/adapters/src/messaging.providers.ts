import type { Provider } from '@nestjs/common';
import { MessagingOutbox, OutgoingEmailRepository, OutgoingEmailsReadModel, SenderRepository, UnitOfWork } from '@leadflow/messaging-core';
import { MESSAGING_EMAIL_RECORDS } from './infrastructure/persistence/outgoing-email.record';
import { SenderRecord } from './infrastructure/persistence/sender.record';
import { TypeOrmOutgoingEmailRepository } from './infrastructure/persistence/typeorm-outgoing-email.repository';
import { TypeOrmOutgoingEmailsReadModel } from './infrastructure/persistence/typeorm-outgoing-emails.read-model';
import { TypeOrmSenderRepository } from './infrastructure/persistence/typeorm-sender.repository';
import { PlatformMessagingOutbox, PlatformUnitOfWork } from './infrastructure/platform-unit-of-work';

/** TypeORM records of the messaging schema. */
export const MESSAGING_RECORDS = [SenderRecord, ...MESSAGING_EMAIL_RECORDS];

/** The ports of messaging core on PostgreSQL and the platform's unit of work and outbox (api and worker alike). */
export const MESSAGING_PERSISTENCE: Provider[] = [
  { provide: SenderRepository, useClass: TypeOrmSenderRepository },
  { provide: OutgoingEmailRepository, useClass: TypeOrmOutgoingEmailRepository },
  { provide: OutgoingEmailsReadModel, useClass: TypeOrmOutgoingEmailsReadModel },
  { provide: UnitOfWork, useClass: PlatformUnitOfWork },
  { provide: MessagingOutbox, useClass: PlatformMessagingOutbox },
];
