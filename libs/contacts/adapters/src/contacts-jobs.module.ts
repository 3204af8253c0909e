import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CONTACT_EVENTS } from '@leadflow/contacts-contracts';
import {
  CONTACTS_JOB_HANDLERS,
  ContactsReadModel,
  ContactsRepository,
  ContactStageRepository,
  LeadScoreRepository,
  SmsFollowUpPort,
} from '@leadflow/contacts-core';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { CONTACTS_RECORDS } from './infrastructure/persistence/contacts.records';
import { TypeOrmContactsRepository } from './infrastructure/persistence/typeorm-contacts.repository';
import { TypeOrmContactStageRepository } from './infrastructure/persistence/typeorm-contact-stage.repository';
import { TypeOrmContactsReadModel } from './infrastructure/persistence/typeorm-contacts.read-model';
import { TypeOrmLeadScoreRepository } from './infrastructure/persistence/typeorm-lead-score.repository';
import { PostgresSmsFollowUpAdapter } from './infrastructure/sms/postgres-sms-follow-up.adapter';
import { LEAD_FOLLOW_UP_CONSUMER } from './interface/jobs/lead-follow-up.job';
import { LeadFollowUpProcessor } from './interface/jobs/lead-follow-up.processor';
import { LEAD_SCORE_CONSUMER, LEAD_SCORE_EVENTS, LEAD_SCORE_REVIEW_QUEUE } from './interface/jobs/lead-score.job';
import { LeadScoreProcessor } from './interface/jobs/lead-score.processor';
import { LeadScoreReviewProcessor } from './interface/jobs/lead-score-review.processor';
import { LeadScoreReviewScheduler } from './interface/jobs/lead-score-review.scheduler';

/**
 * The contacts context in the worker app. Needs QueueModule.forRoot and the outbox relay
 * (OutboxRelayModule) in the worker.
 * - SMS follow-up hand-off of captured leads: consumer `lead-follow-up` of the relayed `lead_created`
 *   events; each one is handed to the SMS bot through {@link SmsFollowUpPort} (default adapter: a
 *   `contacts.sms_handoffs` row).
 * - Lead score: consumer `lead-score` of the engagement and profile events (LEAD_SCORE_EVENTS), each
 *   one recomputing the score of the contact it names, and the hourly review pass (repeatable job)
 *   recomputing the scores whose recency part dropped.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature(CONTACTS_RECORDS),
    OutboxSubscriptionModule.forConsumer({ consumer: LEAD_FOLLOW_UP_CONSUMER, events: [CONTACT_EVENTS.leadCreated] }),
    OutboxSubscriptionModule.forConsumer({ consumer: LEAD_SCORE_CONSUMER, events: [...LEAD_SCORE_EVENTS] }),
    BullModule.registerQueue({ name: LEAD_SCORE_REVIEW_QUEUE }),
  ],
  providers: [
    ...CONTACTS_JOB_HANDLERS,
    { provide: ContactsRepository, useClass: TypeOrmContactsRepository },
    // the published commands the automations engine dispatches in the worker (CONTACTS_JOB_HANDLERS)
    { provide: ContactStageRepository, useClass: TypeOrmContactStageRepository },
    { provide: ContactsReadModel, useClass: TypeOrmContactsReadModel },
    { provide: SmsFollowUpPort, useClass: PostgresSmsFollowUpAdapter },
    { provide: LeadScoreRepository, useClass: TypeOrmLeadScoreRepository },
    LeadFollowUpProcessor,
    LeadScoreProcessor,
    LeadScoreReviewProcessor,
    LeadScoreReviewScheduler,
  ],
})
export class ContactsJobsModule {}
