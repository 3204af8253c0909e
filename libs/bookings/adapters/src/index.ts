import { BookingsInit1795335356795 } from './infrastructure/persistence/migrations/1795335356795-bookings-init';
import { BookingsCalendars1795340000000 } from './infrastructure/persistence/migrations/1795340000000-bookings-calendars';
import { BookingsKeysByAccount1800000000700 } from './infrastructure/persistence/migrations/1800000000700-bookings-keys-by-account';

export * from './bookings-http.module';
export * from './bookings-jobs.module';

/** Migrations of the `bookings` schema, in order. */
export const bookingsMigrations = [BookingsInit1795335356795, BookingsCalendars1795340000000, BookingsKeysByAccount1800000000700];
