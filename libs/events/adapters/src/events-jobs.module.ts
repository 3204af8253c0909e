import { Module } from '@nestjs/common';

/** The events context's BullMQ processors and subscribers, imported by the worker app. */
@Module({})
export class EventsJobsModule {}
