import { UsageInit1767000000300 } from './infrastructure/persistence/migrations/1767000000300-usage-init';

export * from './usage-http.module';
export * from './usage-jobs.module';

/** Migrations of the `usage` schema, in order. */
export const usageMigrations = [UsageInit1767000000300];
