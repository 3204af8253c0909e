import { MessagingInit1767000000500 } from './infrastructure/persistence/migrations/1767000000500-messaging-init';

export * from './messaging-http.module';
export * from './messaging-jobs.module';

/** Migrations of the `messaging` schema, in order. */
export const messagingMigrations = [MessagingInit1767000000500];
