export * from './domain/webhooks.errors';
