import { Module } from '@nestjs/common';

/** The bookings context's BullMQ processors and subscribers, imported by the worker app. */
@Module({})
export class BookingsJobsModule {}
