import { Module } from '@nestjs/common';
import { ContactRegistrationsReassignmentPort, EVENTS_HANDLERS, EventsRepository, EventsSandboxData } from '@leadflow/events-core';
import { TypeOrmContactRegistrationsReassignment } from './infrastructure/persistence/typeorm-contact-registrations-reassignment';
import { TypeOrmEventsRepository } from './infrastructure/persistence/typeorm-events.repository';
import { PostgresEventsSandboxData } from './infrastructure/sandbox/events-sandbox-data';

/**
 * The events context's one core module: every handler ({@link EVENTS_HANDLERS}, listed once in core) and
 * every port binding, imported by both EventsHttpModule and EventsJobsModule.
 */
@Module({
  providers: [
    ...EVENTS_HANDLERS,
    { provide: EventsRepository, useClass: TypeOrmEventsRepository },
    { provide: ContactRegistrationsReassignmentPort, useClass: TypeOrmContactRegistrationsReassignment },
    { provide: EventsSandboxData, useClass: PostgresEventsSandboxData },
  ],
})
export class EventsCoreModule {}
