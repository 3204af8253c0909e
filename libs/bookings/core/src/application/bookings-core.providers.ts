import { ArchiveContactBookingsHandler } from './commands/archive-contact-bookings/archive-contact-bookings.handler';
import { CancelBookingHandler } from './commands/cancel-booking/cancel-booking.handler';
import { CreateBookingHandler } from './commands/create-booking/create-booking.handler';
import { ProvisionCalendarsHandler } from './commands/provision-calendars/provision-calendars.handler';
import { RecordHostBusyTimeHandler } from './commands/record-host-busy-time/record-host-busy-time.handler';
import { SetBookingOutcomeHandler } from './commands/set-booking-outcome/set-booking-outcome.handler';
import { ListBookingsHandler } from './queries/list-bookings/list-bookings.handler';
import { ReassignContactBookingsHandler } from './commands/reassign-contact-bookings/reassign-contact-bookings.handler';
import { ExportCalendarsHandler } from './queries/export-calendars/export-calendars.handler';
import { ResetBookingsDataHandler } from './commands/reset-bookings-data/reset-bookings-data.handler';

/**
 * Every command and query handler of the bookings context (published commands included), declared once:
 * BookingsCoreModule registers them for both the api and the worker.
 */
export const BOOKINGS_HANDLERS = [
  ArchiveContactBookingsHandler,
  ProvisionCalendarsHandler,
  CreateBookingHandler,
  CancelBookingHandler,
  SetBookingOutcomeHandler,
  RecordHostBusyTimeHandler,
  ListBookingsHandler,
  ReassignContactBookingsHandler,
  ExportCalendarsHandler,
  ResetBookingsDataHandler,
];
