import { Module } from '@nestjs/common';
import { CONTACT_EVENTS } from '@leadflow/contacts-contracts';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { BookingsCoreModule } from './bookings-core.module';
import { BOOKINGS_CONSUMER, ContactDeletedProcessor } from './interface/jobs/contact-deleted.processor';

/**
 * The bookings context in the worker app: archives the bookings of deleted contacts (consumer `bookings`
 * of the `contact_deleted` outbox event); handlers and ports from BookingsCoreModule.
 */
@Module({
  imports: [OutboxSubscriptionModule.forConsumer({ consumer: BOOKINGS_CONSUMER, events: [CONTACT_EVENTS.deleted] }), BookingsCoreModule],
  providers: [ContactDeletedProcessor],
})
export class BookingsJobsModule {}
