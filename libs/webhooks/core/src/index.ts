export * from './domain/webhooks.errors';
export * from './domain/webhook-signature';
export * from './domain/redaction';
export * from './domain/retry-schedule';
export * from './domain/webhook-subscription-rules';
