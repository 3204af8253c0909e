import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { USAGE_HANDLERS, UsageBucketRepository, UsageCounterStore } from '@leadflow/usage-core';
import { USAGE_RECORDS } from './infrastructure/persistence/usage-hour-bucket.record';
import { TypeOrmUsageBucketRepository } from './infrastructure/persistence/typeorm-usage-bucket.repository';
import { RedisUsageCounterStore } from './infrastructure/redis/redis-usage-counter.store';
import { UsageRedisKeys } from './infrastructure/redis/usage-redis-keys';

/**
 * The usage context's one core module: every handler ({@link USAGE_HANDLERS}, listed once in core) and
 * every port binding (Redis counters, PostgreSQL hour buckets), imported by both UsageHttpModule and
 * UsageJobsModule. Exports the Redis key scheme for the api's request-path recorder.
 */
@Module({
  imports: [TypeOrmModule.forFeature(USAGE_RECORDS)],
  providers: [
    ...USAGE_HANDLERS,
    UsageRedisKeys,
    { provide: UsageCounterStore, useClass: RedisUsageCounterStore },
    { provide: UsageBucketRepository, useClass: TypeOrmUsageBucketRepository },
  ],
  exports: [UsageRedisKeys],
})
export class UsageCoreModule {}
