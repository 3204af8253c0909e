import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { CONTACT_EVENTS } from '@leadflow/contacts-contracts';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { ContactsCoreModule } from './contacts-core.module';
import { LEAD_FOLLOW_UP_CONSUMER } from './interface/jobs/lead-follow-up.job';
import { LeadFollowUpProcessor } from './interface/jobs/lead-follow-up.processor';
import { LEAD_SCORE_CONSUMER, LEAD_SCORE_EVENTS, LEAD_SCORE_REVIEW_QUEUE } from './interface/jobs/lead-score.job';
import { LeadScoreProcessor } from './interface/jobs/lead-score.processor';
import { LeadScoreReviewProcessor } from './interface/jobs/lead-score-review.processor';
import { LeadScoreReviewScheduler } from './interface/jobs/lead-score-review.scheduler';

/**
 * The contacts context in the worker app: its processors over ContactsCoreModule (every handler and
 * port binding, the same as the api's, among them the published commands and queries the automations
 * engine dispatches in the worker). Needs QueueModule.forRoot and the outbox relay (OutboxRelayModule).
 * - SMS follow-up hand-off of captured leads: consumer `lead-follow-up` of the relayed `lead_created`
 *   events; each one is handed to the SMS bot through {@link SmsFollowUpPort} (default adapter: a
 *   `contacts.sms_handoffs` row).
 * - Lead score: consumer `lead-score` of the engagement and profile events (LEAD_SCORE_EVENTS), each
 *   one recomputing the score of the contact it names, and the hourly review pass (repeatable job)
 *   recomputing the scores whose recency part dropped.
 */
@Module({
  imports: [
    ContactsCoreModule,
    OutboxSubscriptionModule.forConsumer({ consumer: LEAD_FOLLOW_UP_CONSUMER, events: [CONTACT_EVENTS.leadCreated] }),
    OutboxSubscriptionModule.forConsumer({ consumer: LEAD_SCORE_CONSUMER, events: [...LEAD_SCORE_EVENTS] }),
    BullModule.registerQueue({ name: LEAD_SCORE_REVIEW_QUEUE }),
  ],
  providers: [
    LeadFollowUpProcessor,
    LeadScoreProcessor,
    LeadScoreReviewProcessor,
    LeadScoreReviewScheduler,
  ],
})
export class ContactsJobsModule {}
