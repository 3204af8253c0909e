import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AUTOMATIONS_JOB_HANDLERS, DefaultExecutionEngineSettings, ExecutionEngineSettings, ExecutionScheduler } from '@leadflow/automations-core';
import { CONTACT_EVENTS, STAGE_CHANGED_EVENT } from '@leadflow/contacts-contracts';
import { AUTOMATION_EVENTS } from '@leadflow/automations-contracts';
import { AppConfig, OutboxSubscriptionModule } from '@leadflow/shared-platform';
import { AUTOMATIONS_PERSISTENCE_PROVIDERS } from './automations-persistence.providers';
import { AUTOMATION_EXECUTIONS_QUEUE, AUTOMATIONS_CONSUMER } from './interface/jobs/automation-execution.job';
import { AutomationEventsProcessor } from './interface/jobs/automation-events.processor';
import { BullMqExecutionScheduler } from './interface/jobs/bullmq-execution.scheduler';
import { ExecutionSweeper } from './interface/jobs/execution-sweeper';
import { RunExecutionProcessor } from './interface/jobs/run-execution.processor';

const positive = (value: number): number | undefined => (Number.isFinite(value) && value > 0 ? value : undefined);

/**
 * Engine settings from AppConfig (`AUTOMATION_LEASE_MS`, `AUTOMATION_SWEEP_INTERVAL_MS`,
 * `AUTOMATION_STALE_GRACE_MS`, `AUTOMATION_MAX_RETRIES`; defaults in DefaultExecutionEngineSettings).
 */
export function engineSettingsFrom(config: AppConfig): ExecutionEngineSettings {
  const engine = config.automationEngine;
  return new DefaultExecutionEngineSettings({
    leaseMs: positive(engine.leaseMs),
    sweepIntervalMs: positive(engine.sweepIntervalMs),
    staleGraceMs: positive(engine.staleGraceMs),
    maxRetries: positive(engine.maxRetries),
  });
}

/**
 * The automations context in the worker: the step engine (`automation-executions` queue), the
 * crash-recovery sweeper, and the outbox consumer `automations` (engine hand-offs of new executions,
 * `contact_created` and `stage_changed` triggers). Needs QueueModule.forRoot and OutboxRelayModule;
 * the contacts and messaging published commands (stages are resolved at provisioning, so no pipeline query runs here) are registered by their jobs modules.
 */
@Module({
  imports: [
    BullModule.registerQueue({ name: AUTOMATION_EXECUTIONS_QUEUE }),
    OutboxSubscriptionModule.forConsumer({
      consumer: AUTOMATIONS_CONSUMER,
      events: [AUTOMATION_EVENTS.executionRequested, CONTACT_EVENTS.created, STAGE_CHANGED_EVENT],
    }),
  ],
  providers: [
    ...AUTOMATIONS_JOB_HANDLERS,
    ...AUTOMATIONS_PERSISTENCE_PROVIDERS,
    { provide: ExecutionEngineSettings, inject: [AppConfig], useFactory: engineSettingsFrom },
    { provide: ExecutionScheduler, useClass: BullMqExecutionScheduler },
    AutomationEventsProcessor,
    RunExecutionProcessor,
    ExecutionSweeper,
  ],
})
export class AutomationsJobsModule {}
