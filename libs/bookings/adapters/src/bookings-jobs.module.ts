import { Module } from '@nestjs/common';
import { CONTACT_EVENTS } from '@leadflow/contacts-contracts';
import { BOOKINGS_JOB_HANDLERS } from '@leadflow/bookings-core';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { BOOKINGS_PROVIDERS } from './bookings-persistence.providers';
import { BOOKINGS_CONSUMER, ContactDeletedProcessor } from './interface/jobs/contact-deleted.processor';

/**
 * The bookings context in the worker app: archives the bookings of deleted contacts (consumer `bookings`
 * of the `contact_deleted` outbox event).
 */
@Module({
  imports: [OutboxSubscriptionModule.forConsumer({ consumer: BOOKINGS_CONSUMER, events: [CONTACT_EVENTS.deleted] })],
  providers: [...BOOKINGS_JOB_HANDLERS, ...BOOKINGS_PROVIDERS, ContactDeletedProcessor],
})
export class BookingsJobsModule {}
