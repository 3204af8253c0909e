import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { ExecutionScheduler } from '@leadflow/automations-core';
import { AUTOMATION_EXECUTION_JOB_OPTIONS, AUTOMATION_EXECUTIONS_QUEUE, AutomationExecutionJob, executionJobId } from './automation-execution.job';

/** {@link ExecutionScheduler} on the `automation-executions` BullMQ queue (idempotent job ids). */
@Injectable()
export class BullMqExecutionScheduler extends ExecutionScheduler {
  constructor(@InjectQueue(AUTOMATION_EXECUTIONS_QUEUE) private readonly queue: Queue<AutomationExecutionJob>) {
    super();
  }

  async schedule(accountId: string, executionId: string, jobKey: string, delayMs: number): Promise<void> {
    await this.queue.add('run', { accountId, executionId }, { ...AUTOMATION_EXECUTION_JOB_OPTIONS, jobId: executionJobId(executionId, jobKey), delay: Math.max(0, delayMs) });
  }
}
