import { IngestCustomEventHandler } from './commands/ingest-custom-event/ingest-custom-event.handler';
import { ProvisionEventsHandler } from './commands/provision-events/provision-events.handler';
import { RegisterForEventHandler } from './commands/register-for-event/register-for-event.handler';
import { UpdateRegistrationHandler } from './commands/update-registration/update-registration.handler';
import { ReassignContactRegistrationsHandler } from './commands/reassign-contact-registrations/reassign-contact-registrations.handler';
import { ResetEventsDataHandler } from './commands/reset-events-data/reset-events-data.handler';
import { ExportEventsHandler } from './queries/export-events/export-events.handler';

/** Every command and query handler of the events context, declared once: EventsCoreModule registers them for both the api and the worker. */
export const EVENTS_HANDLERS = [
  IngestCustomEventHandler,
  RegisterForEventHandler,
  ProvisionEventsHandler,
  UpdateRegistrationHandler,
  ReassignContactRegistrationsHandler,
  ExportEventsHandler,
  ResetEventsDataHandler,
];
