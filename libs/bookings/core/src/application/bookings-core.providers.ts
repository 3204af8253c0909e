import { ArchiveContactBookingsHandler } from './commands/archive-contact-bookings.handler';
import { CancelBookingHandler } from './commands/cancel-booking.handler';
import { CreateBookingHandler } from './commands/create-booking.handler';
import { ProvisionCalendarsHandler } from './commands/provision-calendars.handler';
import { RecordHostBusyTimeHandler } from './commands/record-host-busy-time.handler';
import { SetBookingOutcomeHandler } from './commands/set-booking-outcome.handler';
import { ListBookingsHandler } from './queries/list-bookings.handler';
import { ReassignContactBookingsHandler } from './commands/reassign-contact-bookings/reassign-contact-bookings.handler';

/** Every command and query handler of the bookings context for the api app (published commands included). */
export const BOOKINGS_HANDLERS = [
  ProvisionCalendarsHandler,
  CreateBookingHandler,
  CancelBookingHandler,
  SetBookingOutcomeHandler,
  RecordHostBusyTimeHandler,
  ListBookingsHandler,
  ReassignContactBookingsHandler,
];

/** Handlers the worker's bookings jobs run (archiving the bookings of deleted contacts). */
export const BOOKINGS_JOB_HANDLERS = [ArchiveContactBookingsHandler];
