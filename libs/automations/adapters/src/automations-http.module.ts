import { Module } from '@nestjs/common';

/** The automations context's controllers and handlers, imported by the api app. */
@Module({})
export class AutomationsHttpModule {}
