import { EventsInit1795335372884 } from './infrastructure/persistence/migrations/1795335372884-events-init';
import { EventsTables1795335400100 } from './infrastructure/persistence/migrations/1795335400100-events-tables';
import { EventsKeysByAccount1800000001000 } from './infrastructure/persistence/migrations/1800000001000-events-keys-by-account';

export * from './events-http.module';
export * from './events-jobs.module';

/** Migrations of the `events` schema, in order. */
export const eventsMigrations = [EventsInit1795335372884, EventsTables1795335400100, EventsKeysByAccount1800000001000];
