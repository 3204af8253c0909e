import { accountsMigrations } from '@leadflow/accounts-adapters';
import { platformMigrations } from '@leadflow/shared-platform';

/** Every migration of every schema, in the order they run (platform first, then each context). */
export const ALL_MIGRATIONS: Function[] = [...platformMigrations, ...accountsMigrations];
