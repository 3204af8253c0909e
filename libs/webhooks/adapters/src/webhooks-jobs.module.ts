import { Module } from '@nestjs/common';

/** The webhooks context's BullMQ processors and subscribers, imported by the worker app. */
@Module({})
export class WebhooksJobsModule {}
