import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { CONTACT_EVENTS, STAGE_CHANGED_EVENT } from '@leadflow/contacts-contracts';
import { AUTOMATION_EVENTS } from '@leadflow/automations-contracts';
import { OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { AutomationsCoreModule } from './automations-core.module';
import { AUTOMATION_EXECUTIONS_QUEUE, AUTOMATIONS_CONSUMER } from './interface/jobs/automation-execution.job';
import { AutomationEventsProcessor } from './interface/jobs/automation-events.processor';
import { BullMqExecutionScheduler } from './interface/jobs/bullmq-execution.scheduler';
import { ExecutionSweeper } from './interface/jobs/execution-sweeper';
import { RunExecutionProcessor } from './interface/jobs/run-execution.processor';

const executionsQueue = BullModule.registerQueue({ name: AUTOMATION_EXECUTIONS_QUEUE });

/**
 * The automations context in the worker: the step engine (`automation-executions` queue), the
 * crash-recovery sweeper, and the outbox consumer `automations` (engine hand-offs of new executions,
 * `contact_created` and `stage_changed` triggers). Needs QueueModule.forRoot and OutboxRelayModule;
 * handlers and ports from AutomationsCoreModule; the contacts and messaging published commands (stages are resolved at provisioning, so no pipeline query runs here) are registered by their jobs modules.
 */
@Module({
  imports: [
    AutomationsCoreModule.register({ scheduler: BullMqExecutionScheduler, imports: [executionsQueue] }),
    executionsQueue,
    OutboxSubscriptionModule.forConsumer({
      consumer: AUTOMATIONS_CONSUMER,
      events: [AUTOMATION_EVENTS.executionRequested, CONTACT_EVENTS.created, STAGE_CHANGED_EVENT],
    }),
  ],
  providers: [AutomationEventsProcessor, RunExecutionProcessor, ExecutionSweeper],
})
export class AutomationsJobsModule {}
export { engineSettingsFrom } from './automations-core.module';
