import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { Job, UnrecoverableError } from 'bullmq';
import { AccountId, DomainError } from '@leadflow/shared-kernel';
import { consumerQueueName, IntegrationEventJob } from '@leadflow/shared-platform';
import { AUTOMATION_EVENTS } from '@leadflow/automations-contracts';
import { EnrolFromIntegrationEventCommand, ExecutionScheduler } from '@leadflow/automations-core';
import { AUTOMATIONS_CONSUMER } from './automation-execution.job';

/**
 * Outbox consumer `automations`: `automation_execution_requested` (a new execution) is handed to the
 * execution queue (job key `s0`); `contact_created` and `stage_changed` enrol matching automations
 * (idempotent per event id and automation).
 */
@Processor(consumerQueueName(AUTOMATIONS_CONSUMER), { concurrency: 8 })
export class AutomationEventsProcessor extends WorkerHost {
  constructor(
    private readonly commands: CommandBus,
    private readonly scheduler: ExecutionScheduler,
  ) {
    super();
  }

  async process(job: Job<IntegrationEventJob>): Promise<{ executions: string[] }> {
    const event = job.data;
    try {
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
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(error.code);
      throw error;
    }
  }
}
