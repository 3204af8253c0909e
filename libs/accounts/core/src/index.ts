export * from './application/accounts-core.providers';
export * from './application/ports/accounts-activity.port';
export * from './application/ports/accounts.repository.port';
export * from './application/ports/accounts-settings.port';
export * from './domain/accounts.errors';
export * from './domain/api-key-lifecycle';
export * from './domain/api-key-secret.value-object';
export * from './domain/timezone';
