import { Module } from '@nestjs/common';

/** The quotes context's BullMQ processors and subscribers, imported by the worker app. */
@Module({})
export class QuotesJobsModule {}
