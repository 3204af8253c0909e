import { AccountsInit1767000000100 } from './infrastructure/persistence/migrations/1767000000100-accounts-init';
import { AccountsSandbox1799000000000 } from './infrastructure/persistence/migrations/1799000000000-accounts-sandbox';
import { AccountsKeysByAccount1800000000100 } from './infrastructure/persistence/migrations/1800000000100-accounts-keys-by-account';

export * from './accounts-http.module';
export * from './accounts-jobs.module';

/** Migrations of the `accounts` schema, in order. */
export const accountsMigrations = [AccountsInit1767000000100, AccountsSandbox1799000000000, AccountsKeysByAccount1800000000100];
