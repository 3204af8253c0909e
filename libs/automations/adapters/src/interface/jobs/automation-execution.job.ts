import type { JobsOptions } from 'bullmq';
import { COMPLETED_JOB_RETENTION } from '@leadflow/shared-platform';

/** Queue of execution runs (prefixed by QueueModule with `<REDIS_PREFIX>:bull`). */
export const AUTOMATION_EXECUTIONS_QUEUE = 'automation-executions';

/** Outbox consumer of the automations context: engine hand-offs and the contact_created / stage_changed triggers. */
export const AUTOMATIONS_CONSUMER = 'automations';

/** A job only says "look at execution X"; the row holds the state. */
export interface AutomationExecutionJob {
  accountId: string;
  executionId: string;
}

/** Job id: `<executionId>.<key>` (`s0` first run, `w<step>` resume after a wait; the sweeper adds `.m<minute>` to its keys). */
export function executionJobId(executionId: string, key: string): string {
  return `${executionId}.${key}`;
}

/** Infrastructure failures retry with backoff (each retry is counted in the execution's `retry_count`). */
export const AUTOMATION_EXECUTION_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: COMPLETED_JOB_RETENTION,
  removeOnFail: { age: 14 * 24 * 60 * 60 },
};
