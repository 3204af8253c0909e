import { BookingsInit1795335356795 } from './infrastructure/persistence/migrations/1795335356795-bookings-init';

export * from './bookings-http.module';
export * from './bookings-jobs.module';

/** Migrations of the `bookings` schema, in order. */
export const bookingsMigrations = [BookingsInit1795335356795];
