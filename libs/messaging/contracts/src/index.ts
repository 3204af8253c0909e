/**
 * Public API of the messaging context: published commands and queries and their result types.
 * Nothing else crosses the boundary.
 */
export * from './provision-senders.command';
export * from './sender';
export * from './sender.queries';
export * from './queue-email.command';
export * from './outgoing-email.events';
export * from './outgoing-email.queries';
export * from './conversations';
export * from './email-threads';
export * from './sandbox';
