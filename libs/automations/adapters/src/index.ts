import { AutomationsInit1795335367619 } from './infrastructure/persistence/migrations/1795335367619-automations-init';

export * from './automations-http.module';
export * from './automations-jobs.module';

/** Migrations of the `automations` schema, in order. */
export const automationsMigrations = [AutomationsInit1795335367619];
