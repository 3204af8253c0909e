import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MESSAGING_HANDLERS, SenderRepository } from '@leadflow/messaging-core';
import { SenderRecord } from './infrastructure/persistence/sender.record';
import { TypeOrmSenderRepository } from './infrastructure/persistence/typeorm-sender.repository';

/** Messaging for the api app: senders (provisioning command, default-sender query). Emails come later. */
@Module({
  imports: [TypeOrmModule.forFeature([SenderRecord])],
  providers: [...MESSAGING_HANDLERS, { provide: SenderRepository, useClass: TypeOrmSenderRepository }],
})
export class MessagingHttpModule {}
