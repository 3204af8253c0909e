import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { Job } from 'bullmq';
import { RunExecutionCommand } from '@leadflow/automations-core';
import { AUTOMATION_EXECUTIONS_QUEUE, AutomationExecutionJob } from './automation-execution.job';
import { STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';

/** Runs one execution per job (RunExecutionHandler); infrastructure errors fail the job so BullMQ retries it. */
@Processor(AUTOMATION_EXECUTIONS_QUEUE, { ...STALLED_JOB_SETTINGS, concurrency: 8 })
export class RunExecutionProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  process(job: Job<AutomationExecutionJob>): Promise<{ status: string }> {
    return this.commands.execute(new RunExecutionCommand(job.data.accountId, job.data.executionId));
  }
}
