import { Module } from '@nestjs/common';
import { UsageRecorder } from '@leadflow/shared-platform';
import { RedisUsageRecorder } from './infrastructure/redis/redis-usage.recorder';
import { UsageController } from './interface/http/usage.controller';
import { UsageCoreModule } from './usage-core.module';

/**
 * Usage for the api app: the request path's {@link UsageRecorder} (Redis counters, exported for the
 * global guard and the completion hook), `GET /v1/usage`, and (from UsageCoreModule, with the ports) the
 * aggregation command (run by the worker's schedule; registered here too so it can be dispatched from
 * the api, e.g. by tests).
 */
@Module({
  imports: [UsageCoreModule],
  controllers: [UsageController],
  providers: [{ provide: UsageRecorder, useClass: RedisUsageRecorder }],
  exports: [UsageRecorder],
})
export class UsageHttpModule {}
