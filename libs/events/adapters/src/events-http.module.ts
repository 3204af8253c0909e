import { Module } from '@nestjs/common';

/** The events context's controllers and handlers, imported by the api app. */
@Module({})
export class EventsHttpModule {}
