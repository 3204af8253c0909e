import { Injectable } from '@nestjs/common';
import { ExecutionScheduler } from '@leadflow/automations-core';

/**
 * {@link ExecutionScheduler} of the api app, which has no queue: the step engine runs only in the worker
 * (new executions reach it through the outbox event `automation_execution_requested`), so a schedule
 * asked from the api is a wiring error and throws.
 */
@Injectable()
export class WorkerOnlyExecutionScheduler extends ExecutionScheduler {
  schedule(): Promise<void> {
    return Promise.reject(new Error('the automation engine runs in the worker: ExecutionScheduler is not available in the api app'));
  }
}
