/**
 * Public API of the quotes context: integration events (`<thing>-<happened>.v1.ts`), published queries
 * and commands (`*.query.ts`, `*.command.ts`) and their result types. Nothing else crosses the boundary.
 */
export * from './quote.views';
export * from './quotes.commands';
export * from './quotes.events';
export * from './reassign-contact-quotes.command';
export * from './sandbox';
