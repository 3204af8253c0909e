export * from './usage.commands';
export * from './usage.queries';
export * from './usage.views';
