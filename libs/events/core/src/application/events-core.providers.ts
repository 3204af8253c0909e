import { IngestCustomEventHandler } from './commands/ingest-custom-event.handler';
import { ProvisionEventsHandler } from './commands/provision-events.handler';
import { RegisterForEventHandler } from './commands/register-for-event.handler';
import { UpdateRegistrationHandler } from './commands/update-registration.handler';
import { ReassignContactRegistrationsHandler } from './commands/reassign-contact-registrations/reassign-contact-registrations.handler';

/** Every command handler of the events context (registered by its api module). */
export const EVENTS_HANDLERS = [IngestCustomEventHandler, RegisterForEventHandler, ProvisionEventsHandler, UpdateRegistrationHandler, ReassignContactRegistrationsHandler];
