import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CONTACT_EVENTS } from '@leadflow/contacts-contracts';
import { CONTACTS_JOB_HANDLERS, ContactJournal, ContactsReadModel, ContactsRepository, ContactStageRepository, SmsFollowUpPort, UnitOfWork } from '@leadflow/contacts-core';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { CONTACTS_RECORDS } from './infrastructure/persistence/contacts.records';
import { TypeOrmContactsRepository } from './infrastructure/persistence/typeorm-contacts.repository';
import { TypeOrmContactStageRepository } from './infrastructure/persistence/typeorm-contact-stage.repository';
import { TypeOrmContactsReadModel } from './infrastructure/persistence/typeorm-contacts.read-model';
import { PlatformContactJournal, PlatformUnitOfWork } from './infrastructure/platform-journal';
import { PostgresSmsFollowUpAdapter } from './infrastructure/sms/postgres-sms-follow-up.adapter';
import { LEAD_FOLLOW_UP_CONSUMER } from './interface/jobs/lead-follow-up.job';
import { LeadFollowUpProcessor } from './interface/jobs/lead-follow-up.processor';

/**
 * The contacts context in the worker app: the SMS follow-up hand-off of captured leads. Subscribes
 * to the relayed `lead_created` outbox events (consumer `lead-follow-up`); each one is handed to the
 * SMS bot through {@link SmsFollowUpPort} (default adapter: a `contacts.sms_handoffs` row). Needs
 * QueueModule.forRoot and the outbox relay (OutboxRelayModule) in the worker.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature(CONTACTS_RECORDS),
    OutboxSubscriptionModule.forConsumer({ consumer: LEAD_FOLLOW_UP_CONSUMER, events: [CONTACT_EVENTS.leadCreated] }),
  ],
  providers: [
    ...CONTACTS_JOB_HANDLERS,
    { provide: ContactsRepository, useClass: TypeOrmContactsRepository },
    // the published commands the automations engine dispatches in the worker (CONTACTS_JOB_HANDLERS)
    { provide: ContactStageRepository, useClass: TypeOrmContactStageRepository },
    { provide: ContactsReadModel, useClass: TypeOrmContactsReadModel },
    { provide: UnitOfWork, useClass: PlatformUnitOfWork },
    { provide: ContactJournal, useClass: PlatformContactJournal },
    { provide: SmsFollowUpPort, useClass: PostgresSmsFollowUpAdapter },
    LeadFollowUpProcessor,
  ],
})
export class ContactsJobsModule {}
