import { Processor } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { AccountId } from '@leadflow/shared-kernel';
import { consumerQueueName, IntegrationEventConsumer, IntegrationEventJob, STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';
import { AUTOMATION_EVENTS } from '@leadflow/automations-contracts';
import { EnrolFromIntegrationEventCommand, ExecutionScheduler } from '@leadflow/automations-core';
import { AUTOMATIONS_CONSUMER } from './automation-execution.job';

/**
 * Outbox consumer `automations`: `automation_execution_requested` (a new execution) is handed to the
 * execution queue (job key `s0`); `contact_created` and `stage_changed` enrol matching automations
 * (idempotent per event id and automation).
 */
@Processor(consumerQueueName(AUTOMATIONS_CONSUMER), { ...STALLED_JOB_SETTINGS, concurrency: 8 })
export class AutomationEventsProcessor extends IntegrationEventConsumer {
  constructor(
    private readonly commands: CommandBus,
    private readonly scheduler: ExecutionScheduler,
  ) {
    super();
  }

  protected async handle(event: IntegrationEventJob): Promise<{ executions: string[] }> {
    if (event.type === AUTOMATION_EVENTS.executionRequested) {
      const executionId = String(event.payload.execution_id);
      await this.scheduler.schedule(event.accountId, executionId, 's0', 0);
      return { executions: [executionId] };
    }
    const { executionIds } = await this.commands.execute(
      new EnrolFromIntegrationEventCommand(event.accountId as AccountId, event.id, event.type, event.payload, event.actor),
    );
    // New executions reach the engine through their own outbox hand-off.
    return { executions: executionIds };
  }
}
