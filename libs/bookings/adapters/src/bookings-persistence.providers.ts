import {
  BookingDirectory,
  BookingMailer,
  BookingRepository,
  BookingsReadModel,
  CalendarRepository,
  ContactBookingsReassignment,
  ExternalCalendarPort,
} from '@leadflow/bookings-core';
import {
  CqrsBookingDirectory,
  CqrsBookingMailer,
} from './infrastructure/cqrs/cqrs-booking-collaborators';
import { PostgresBookingRepository, PostgresBookingsReadModel, PostgresCalendarRepository } from './infrastructure/persistence/postgres-bookings.repository';
import { PostgresExternalCalendarAdapter } from './infrastructure/persistence/postgres-external-calendar.adapter';
import { PostgresContactBookingsReassignment } from './infrastructure/persistence/postgres-contact-bookings-reassignment';

/** The bookings ports on PostgreSQL and the other contexts' buses (api and worker alike); `UnitOfWork` and `Journal` come from PlatformModule. */
export const BOOKINGS_PROVIDERS = [
  { provide: CalendarRepository, useClass: PostgresCalendarRepository },
  { provide: BookingRepository, useClass: PostgresBookingRepository },
  { provide: BookingsReadModel, useClass: PostgresBookingsReadModel },
  { provide: ExternalCalendarPort, useClass: PostgresExternalCalendarAdapter },
  { provide: ContactBookingsReassignment, useClass: PostgresContactBookingsReassignment },
  { provide: BookingDirectory, useClass: CqrsBookingDirectory },
  { provide: BookingMailer, useClass: CqrsBookingMailer },
];
