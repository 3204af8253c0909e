import { AutomationsInit1795335367619 } from './infrastructure/persistence/migrations/1795335367619-automations-init';
import { AutomationsExecutions1795340000000 } from './infrastructure/persistence/migrations/1795340000000-automations-executions';
import { AutomationsKeysByAccount1800000000900 } from './infrastructure/persistence/migrations/1800000000900-automations-keys-by-account';

export * from './automations-http.module';
export * from './automations-jobs.module';
export { AUTOMATION_EXECUTIONS_QUEUE, AUTOMATIONS_CONSUMER } from './interface/jobs/automation-execution.job';

/** Migrations of the `automations` schema, in order. */
export const automationsMigrations = [AutomationsInit1795335367619, AutomationsExecutions1795340000000, AutomationsKeysByAccount1800000000900];
