import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmailTransport, MESSAGING_HANDLERS, MessagingSandboxData } from '@leadflow/messaging-core';
import { NodemailerEmailTransport } from './infrastructure/mail/nodemailer-email.transport';
import { TestModeEmailTransport } from './infrastructure/mail/test-mode-email.transport';
import { PostgresMessagingSandboxData } from './infrastructure/sandbox/messaging-sandbox-data';
import { MESSAGING_PERSISTENCE, MESSAGING_RECORDS } from './messaging.providers';

/**
 * The messaging context's one core module: every handler ({@link MESSAGING_HANDLERS}, listed once in core,
 * the delivery attempt included) and every port binding (PostgreSQL, the other contexts' buses, the email
 * transport: nodemailer behind the test-mode guard, which never hands a sandbox account's email over),
 * imported by both MessagingHttpModule and MessagingJobsModule. `UnitOfWork` and `Journal` come from
 * PlatformModule. The api builds the transport but never sends: deliveries run in the worker's queue.
 */
@Module({
  imports: [TypeOrmModule.forFeature(MESSAGING_RECORDS)],
  providers: [
    ...MESSAGING_HANDLERS,
    ...MESSAGING_PERSISTENCE,
    NodemailerEmailTransport,
    { provide: EmailTransport, useClass: TestModeEmailTransport },
    { provide: MessagingSandboxData, useClass: PostgresMessagingSandboxData },
  ],
})
export class MessagingCoreModule {}
