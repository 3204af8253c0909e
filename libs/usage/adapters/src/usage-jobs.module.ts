import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { USAGE_AGGREGATION_QUEUE } from './interface/jobs/aggregate-usage.job';
import { AggregateUsageProcessor } from './interface/jobs/aggregate-usage.processor';
import { UsageAggregationScheduler } from './interface/jobs/usage-aggregation.scheduler';
import { UsageCoreModule } from './usage-core.module';

/**
 * Usage for the worker app: the repeatable aggregation (every 2 minutes) that recomputes the current
 * hour's buckets and closes ended hours into `usage.hour_buckets`; handlers and ports from UsageCoreModule. Needs QueueModule.forRoot.
 */
@Module({
  imports: [BullModule.registerQueue({ name: USAGE_AGGREGATION_QUEUE }), UsageCoreModule],
  providers: [AggregateUsageProcessor, UsageAggregationScheduler],
})
export class UsageJobsModule {}
