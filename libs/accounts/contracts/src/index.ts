export * from './api-key-principal';
export * from './resolve-api-key.query';
export * from './scopes';
