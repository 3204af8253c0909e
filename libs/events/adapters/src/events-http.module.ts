import { Module } from '@nestjs/common';
import { ContactRegistrationsReassignmentPort, EVENTS_HANDLERS, EventsRepository } from '@leadflow/events-core';
import { TypeOrmContactRegistrationsReassignment } from './infrastructure/persistence/typeorm-contact-registrations-reassignment';
import { TypeOrmEventsRepository } from './infrastructure/persistence/typeorm-events.repository';
import { CustomEventsController } from './interface/http/custom-events.controller';
import { EventRegistrationsAdminController } from './interface/http/event-registrations-admin.controller';
import { EventRegistrationsController } from './interface/http/event-registrations.controller';
import { ServiceSignatureGuard } from './interface/http/service-signature.guard';

/**
 * The events context for the api app: `POST /v1/events` (custom event ingestion), `POST
 * /v1/event-registrations`, the operator's registration actions and the published
 * `ProvisionEventsCommand` (blueprint member `events`).
 */
@Module({
  controllers: [CustomEventsController, EventRegistrationsController, EventRegistrationsAdminController],
  providers: [
    ...EVENTS_HANDLERS,
    ServiceSignatureGuard,
    { provide: EventsRepository, useClass: TypeOrmEventsRepository },
    { provide: ContactRegistrationsReassignmentPort, useClass: TypeOrmContactRegistrationsReassignment },
  ],
})
export class EventsHttpModule {}
