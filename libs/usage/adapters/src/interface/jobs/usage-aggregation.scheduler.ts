import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Queue } from 'bullmq';
import { AGGREGATE_USAGE_JOB, AggregateUsageJob, USAGE_AGGREGATION_EVERY_MS, USAGE_AGGREGATION_QUEUE } from './aggregate-usage.job';

/**
 * Registers the repeatable aggregation when the worker starts. `upsertJobScheduler` is idempotent:
 * every worker upserts the same scheduler id, so the schedule exists once however many run.
 */
@Injectable()
export class UsageAggregationScheduler implements OnApplicationBootstrap {
  constructor(@InjectQueue(USAGE_AGGREGATION_QUEUE) private readonly queue: Queue<AggregateUsageJob>) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      AGGREGATE_USAGE_JOB,
      { every: USAGE_AGGREGATION_EVERY_MS },
      { name: AGGREGATE_USAGE_JOB, data: {}, opts: { removeOnComplete: 50, removeOnFail: 200 } },
    );
  }
}
