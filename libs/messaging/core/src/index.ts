export * from './application/messaging-core.providers';
export * from './application/ports/sender.repository.port';
export * from './domain/messaging.errors';
export * from './domain/sender.entity';
