import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsageRecorder } from '@leadflow/shared-platform';
import { USAGE_HANDLERS, UsageBucketRepository, UsageCounterStore } from '@leadflow/usage-core';
import { USAGE_RECORDS } from './infrastructure/persistence/usage-hour-bucket.record';
import { TypeOrmUsageBucketRepository } from './infrastructure/persistence/typeorm-usage-bucket.repository';
import { RedisUsageCounterStore } from './infrastructure/redis/redis-usage-counter.store';
import { RedisUsageRecorder } from './infrastructure/redis/redis-usage.recorder';
import { UsageRedisKeys } from './infrastructure/redis/usage-redis-keys';
import { UsageController } from './interface/http/usage.controller';

/**
 * Usage for the api app: the request path's {@link UsageRecorder} (Redis counters, exported for the
 * global guard and the completion hook), `GET /v1/usage`, and the aggregation command (run by the
 * worker's schedule; registered here too so it can be dispatched from the api, e.g. by tests).
 */
@Module({
  imports: [TypeOrmModule.forFeature(USAGE_RECORDS)],
  controllers: [UsageController],
  providers: [
    ...USAGE_HANDLERS,
    UsageRedisKeys,
    { provide: UsageRecorder, useClass: RedisUsageRecorder },
    { provide: UsageCounterStore, useClass: RedisUsageCounterStore },
    { provide: UsageBucketRepository, useClass: TypeOrmUsageBucketRepository },
  ],
  exports: [UsageRecorder],
})
export class UsageHttpModule {}
