import { EnrolCustomEventHandler } from './commands/enrol-custom-event.handler';
import { EnrolFromIntegrationEventHandler } from './commands/enrol-from-integration-event.handler';
import { ProvisionAutomationsHandler } from './commands/provision-automations.handler';
import { TriggerAutomationHandler } from './commands/trigger-automation.handler';
import { RunExecutionHandler } from './engine/run-execution.handler';
import { SweepExecutionsHandler } from './engine/sweep-executions.handler';
import { GetAutomationHistoryHandler, ListAutomationsHandler } from './queries/automation.query-handlers';

/** Handlers of the api app: routes, blueprint provisioning, custom-event enrolment (published commands). */
export const AUTOMATIONS_HANDLERS = [
  ProvisionAutomationsHandler,
  TriggerAutomationHandler,
  EnrolCustomEventHandler,
  ListAutomationsHandler,
  GetAutomationHistoryHandler,
];

/** Handlers of the worker: the engine, the sweeper, trigger enrolment from outbox events (and custom events, for worker-side callers). */
export const AUTOMATIONS_JOB_HANDLERS = [RunExecutionHandler, SweepExecutionsHandler, EnrolFromIntegrationEventHandler, EnrolCustomEventHandler];
