/**
 * Public API of the events context: integration events (`<thing>-<happened>.v1.ts`), published queries
 * and commands (`*.query.ts`, `*.command.ts`) and their result types. Nothing else crosses the boundary.
 */
export * from './event-registration.views';
export * from './provision-events.command';
export * from './custom-event.events';
export * from './reassign-contact-registrations.command';
export * from './sandbox';
