/**
 * Public API of the automations context: integration events (`<thing>-<happened>.v1.ts`), published queries
 * and commands (`*.query.ts`, `*.command.ts`) and their result types. Nothing else crosses the boundary.
 */
export * from './automation-blueprint';
export * from './automations.events';
export * from './enrol-custom-event.command';
export * from './provision-automations.command';
export * from './sandbox';
