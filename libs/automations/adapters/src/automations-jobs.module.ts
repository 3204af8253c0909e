import { Module } from '@nestjs/common';

/** The automations context's BullMQ processors and subscribers, imported by the worker app. */
@Module({})
export class AutomationsJobsModule {}
