import { Module } from '@nestjs/common';
import { EventsCoreModule } from './events-core.module';
import { CustomEventsController } from './interface/http/custom-events.controller';
import { EventRegistrationsAdminController } from './interface/http/event-registrations-admin.controller';
import { EventRegistrationsController } from './interface/http/event-registrations.controller';
import { ServiceSignatureGuard } from './interface/http/service-signature.guard';

/**
 * The events context for the api app: `POST /v1/events` (custom event ingestion), `POST
 * /v1/event-registrations`, the operator's registration actions and the published
 * `ProvisionEventsCommand` (blueprint member `events`). Handlers and ports come from EventsCoreModule.
 */
@Module({
  controllers: [CustomEventsController, EventRegistrationsController, EventRegistrationsAdminController],
  imports: [EventsCoreModule],
  providers: [ServiceSignatureGuard],
})
export class EventsHttpModule {}
