import { AccountsInit1767000000100 } from './infrastructure/persistence/migrations/1767000000100-accounts-init';

export * from './accounts-http.module';
export * from './accounts-jobs.module';

/** Migrations of the `accounts` schema, in order. */
export const accountsMigrations = [AccountsInit1767000000100];
