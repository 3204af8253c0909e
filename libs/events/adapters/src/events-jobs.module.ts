import { Module } from '@nestjs/common';
import { EventsCoreModule } from './events-core.module';

/** The events context in the worker app: no processors yet; the handlers and ports of EventsCoreModule, so worker-side callers can dispatch its commands. */
@Module({ imports: [EventsCoreModule] })
export class EventsJobsModule {}
