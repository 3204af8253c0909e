export * from './account-blueprint';
export * from './accounts.commands';
export * from './accounts.queries';
export * from './api-key-principal';
export * from './resolve-api-key.query';
export * from './scopes';
