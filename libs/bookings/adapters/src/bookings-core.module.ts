import { Module } from '@nestjs/common';
import {
  BOOKINGS_HANDLERS,
  BookingDirectory,
  BookingMailer,
  BookingRepository,
  BookingsReadModel,
  BookingsSandboxData,
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
import { PostgresBookingsSandboxData } from './infrastructure/sandbox/bookings-sandbox-data';

/**
 * The bookings context's one core module: every handler ({@link BOOKINGS_HANDLERS}, listed once in core)
 * and every port binding (PostgreSQL and the other contexts' buses), imported by both BookingsHttpModule
 * and BookingsJobsModule. `UnitOfWork` and `Journal` come from PlatformModule.
 */
@Module({
  providers: [
    ...BOOKINGS_HANDLERS,
    { provide: CalendarRepository, useClass: PostgresCalendarRepository },
    { provide: BookingRepository, useClass: PostgresBookingRepository },
    { provide: BookingsReadModel, useClass: PostgresBookingsReadModel },
    { provide: ExternalCalendarPort, useClass: PostgresExternalCalendarAdapter },
    { provide: ContactBookingsReassignment, useClass: PostgresContactBookingsReassignment },
    { provide: BookingsSandboxData, useClass: PostgresBookingsSandboxData },
    { provide: BookingDirectory, useClass: CqrsBookingDirectory },
    { provide: BookingMailer, useClass: CqrsBookingMailer },
  ],
})
export class BookingsCoreModule {}
