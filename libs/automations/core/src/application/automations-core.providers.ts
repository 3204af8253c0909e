import { EnrolCustomEventHandler } from './commands/enrol-custom-event/enrol-custom-event.handler';
import { EnrolFromIntegrationEventHandler } from './commands/enrol-from-integration-event/enrol-from-integration-event.handler';
import { ProvisionAutomationsHandler } from './commands/provision-automations/provision-automations.handler';
import { TriggerAutomationHandler } from './commands/trigger-automation/trigger-automation.handler';
import { RunExecutionHandler } from './commands/run-execution/run-execution.handler';
import { SweepExecutionsHandler } from './commands/sweep-executions/sweep-executions.handler';
import { GetAutomationHistoryHandler } from './queries/get-automation-history/get-automation-history.handler';
import { ListAutomationsHandler } from './queries/list-automations/list-automations.handler';
import { ExportAutomationsHandler } from './queries/export-automations/export-automations.handler';
import { ResetAutomationsDataHandler } from './commands/reset-automations-data/reset-automations-data.handler';

/**
 * Every command and query handler of the automations context (routes, blueprint provisioning, custom-event
 * and integration-event enrolment, the step engine and its sweeper), declared once: AutomationsCoreModule
 * registers them for both the api and the worker.
 */
export const AUTOMATIONS_HANDLERS = [
  ProvisionAutomationsHandler,
  TriggerAutomationHandler,
  EnrolCustomEventHandler,
  EnrolFromIntegrationEventHandler,
  RunExecutionHandler,
  SweepExecutionsHandler,
  ListAutomationsHandler,
  GetAutomationHistoryHandler,
  ExportAutomationsHandler,
  ResetAutomationsDataHandler,
];
