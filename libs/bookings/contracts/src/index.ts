/**
 * Public API of the bookings context: integration events (`<thing>-<happened>.v1.ts`), published queries
 * and commands (`*.query.ts`, `*.command.ts`) and their result types. Nothing else crosses the boundary.
 */
export * from './bookings.events';
export * from './bookings.views';
export * from './calendar-blueprint';
export * from './set-booking-outcome.command';
export * from './record-host-busy-time.command';
export * from './reassign-contact-bookings.command';
export * from './sandbox';
