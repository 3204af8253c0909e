export * from './domain/bookings.errors';
