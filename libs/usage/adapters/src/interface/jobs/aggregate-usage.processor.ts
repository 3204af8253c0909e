import { Processor, WorkerHost } from '@nestjs/bullmq';
import { CommandBus } from '@nestjs/cqrs';
import { Job, UnrecoverableError } from 'bullmq';
import { DomainError } from '@leadflow/shared-kernel';
import { AggregateUsageCommand, UsageAggregationResult } from '@leadflow/usage-contracts';
import { AggregateUsageJob, USAGE_AGGREGATION_QUEUE } from './aggregate-usage.job';
import { STALLED_JOB_SETTINGS } from '@leadflow/shared-platform';

/**
 * Runs one aggregation per job of the repeatable schedule (one at a time per worker; runs on several
 * workers may overlap harmlessly: each recomputes buckets from absolute counters). Infrastructure
 * errors are rethrown so the job fails and the next run, two minutes later, retries the same hours.
 */
@Processor(USAGE_AGGREGATION_QUEUE, { ...STALLED_JOB_SETTINGS, concurrency: 1 })
export class AggregateUsageProcessor extends WorkerHost {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  async process(_job: Job<AggregateUsageJob>): Promise<UsageAggregationResult> {
    try {
      return await this.commands.execute(new AggregateUsageCommand());
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(error.code);
      throw error;
    }
  }
}
