import {
  BookingDirectory,
  BookingJournal,
  BookingMailer,
  BookingRepository,
  BookingsReadModel,
  BookingUnitOfWork,
  CalendarRepository,
  ExternalCalendarPort,
} from '@leadflow/bookings-core';
import {
  CqrsBookingDirectory,
  CqrsBookingMailer,
  PlatformBookingJournal,
  PlatformBookingUnitOfWork,
} from './infrastructure/cqrs/cqrs-booking-collaborators';
import { PostgresBookingRepository, PostgresBookingsReadModel, PostgresCalendarRepository } from './infrastructure/persistence/postgres-bookings.repository';
import { PostgresExternalCalendarAdapter } from './infrastructure/persistence/postgres-external-calendar.adapter';

/** The bookings ports on PostgreSQL, the other contexts' buses and the platform journal (api and worker alike). */
export const BOOKINGS_PROVIDERS = [
  { provide: CalendarRepository, useClass: PostgresCalendarRepository },
  { provide: BookingRepository, useClass: PostgresBookingRepository },
  { provide: BookingsReadModel, useClass: PostgresBookingsReadModel },
  { provide: ExternalCalendarPort, useClass: PostgresExternalCalendarAdapter },
  { provide: BookingDirectory, useClass: CqrsBookingDirectory },
  { provide: BookingMailer, useClass: CqrsBookingMailer },
  { provide: BookingJournal, useClass: PlatformBookingJournal },
  { provide: BookingUnitOfWork, useClass: PlatformBookingUnitOfWork },
];
