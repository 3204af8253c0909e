import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { USAGE_HANDLERS, UsageBucketRepository, UsageCounterStore } from '@leadflow/usage-core';
import { USAGE_RECORDS } from './infrastructure/persistence/usage-hour-bucket.record';
import { TypeOrmUsageBucketRepository } from './infrastructure/persistence/typeorm-usage-bucket.repository';
import { RedisUsageCounterStore } from './infrastructure/redis/redis-usage-counter.store';
import { UsageRedisKeys } from './infrastructure/redis/usage-redis-keys';
import { USAGE_AGGREGATION_QUEUE } from './interface/jobs/aggregate-usage.job';
import { AggregateUsageProcessor } from './interface/jobs/aggregate-usage.processor';
import { UsageAggregationScheduler } from './interface/jobs/usage-aggregation.scheduler';

/**
 * Usage for the worker app: the repeatable aggregation (every 2 minutes) that recomputes the current
 * hour's buckets and closes ended hours into `usage.hour_buckets`. Needs QueueModule.forRoot.
 */
@Module({
  imports: [BullModule.registerQueue({ name: USAGE_AGGREGATION_QUEUE }), TypeOrmModule.forFeature(USAGE_RECORDS)],
  providers: [
    ...USAGE_HANDLERS,
    UsageRedisKeys,
    { provide: UsageCounterStore, useClass: RedisUsageCounterStore },
    { provide: UsageBucketRepository, useClass: TypeOrmUsageBucketRepository },
    AggregateUsageProcessor,
    UsageAggregationScheduler,
  ],
})
export class UsageJobsModule {}
