export * from './domain/events.errors';
