export * from './domain/automations.errors';
