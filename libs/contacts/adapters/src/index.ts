import { ContactsInit1767000000200 } from './infrastructure/persistence/migrations/1767000000200-contacts-init';

export * from './contacts-http.module';
export * from './contacts-jobs.module';

/** Migrations of the `contacts` schema, in order. */
export const contactsMigrations = [ContactsInit1767000000200];
