import { getQueueToken } from '@nestjs/bullmq';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Job, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import type { ApiKeyPrincipal } from '@leadflow/accounts-contracts';
import { asAccountId, Clock, FixedClock, newId } from '@leadflow/shared-kernel';
import { PlatformModule, QueueModule, RedisConnection, RequestOutcome } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { RedisUsageRecorder } from '../src/infrastructure/redis/redis-usage.recorder';
import { UsageRedisKeys } from '../src/infrastructure/redis/usage-redis-keys';
import { AGGREGATE_USAGE_JOB, USAGE_AGGREGATION_EVERY_MS, USAGE_AGGREGATION_QUEUE } from '../src/interface/jobs/aggregate-usage.job';
import { AggregateUsageProcessor } from '../src/interface/jobs/aggregate-usage.processor';
import { UsageJobsModule } from '../src/usage-jobs.module';

/** The worker side of the usage context on real Redis and PostgreSQL: schedule, processor, rows. */
describe('UsageJobsModule: the repeatable aggregation into usage.hour_buckets', () => {
  let services: TestServices;
  let worker: INestApplicationContext;
  let recorder: RedisUsageRecorder;
  let db: DataSource;
  const clock = new FixedClock(new Date('2026-03-10T10:15:00.000Z'));

  const principal = (accountId: string, keyId: string): ApiKeyPrincipal => ({
    keyId,
    keyName: 'key',
    keyPrefix: 'lf_live_abcdefgh',
    accountId: asAccountId(accountId),
    accountName: 'Account',
    scopes: [],
    features: ['public_api'],
    perHour: 1000,
    eventsPerMinute: 60,
    apiTermsAccepted: true,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    expiresAt: null,
  });
  const outcome = (key: ApiKeyPrincipal, statusCode: number, latencyMs: number, rateLimited = false): RequestOutcome => ({
    principal: key,
    method: 'GET',
    route: '/v1/me',
    statusCode,
    rateLimited,
    latencyMs,
    startedAt: clock.now(),
  });
  const runJob = async () => {
    await recorder.flush();
    return worker.get(AggregateUsageProcessor).process({ name: AGGREGATE_USAGE_JOB, data: {} } as Job);
  };
  const rows = (accountId: string) =>
    db.query(
      `SELECT api_key_id, bucket_start, request_count, status_2xx, status_4xx, status_5xx, rate_limited_count, status_unknown,
              latency_p50_ms, latency_p95_ms, latency_p99_ms, latency_histogram, closed
         FROM usage.hour_buckets WHERE account_id = $1 ORDER BY bucket_start, api_key_id`,
      [accountId],
    );

  beforeAll(async () => {
    services = await createTestServices();
    @Module({ imports: [PlatformModule.forRoot({ config: services.config(), clock }), QueueModule.forRoot(), UsageJobsModule] })
    class TestWorkerModule {}
    worker = await NestFactory.createApplicationContext(TestWorkerModule, { logger: false, abortOnError: false });
    await worker.init();
    const redis = worker.get(RedisConnection);
    recorder = new RedisUsageRecorder(redis, new UsageRedisKeys(redis), worker.get(Clock));
    db = worker.get<DataSource>(getDataSourceToken());
  });
  afterAll(async () => {
    await worker.close();
    await services.dispose();
  });

  it('registers the aggregation as a repeatable job every 2 minutes', async () => {
    const queue = worker.get<Queue>(getQueueToken(USAGE_AGGREGATION_QUEUE));
    const scheduler = await queue.getJobScheduler(AGGREGATE_USAGE_JOB);
    expect(USAGE_AGGREGATION_EVERY_MS).toBe(120_000);
    expect(scheduler).toMatchObject({ key: AGGREGATE_USAGE_JOB, name: AGGREGATE_USAGE_JOB, every: 120_000 });
  });

  it('recomputes the current hour per key: disjoint families summing to request_count, latency percentiles and histogram', async () => {
    const accountId = newId();
    const [keyA, keyB] = [principal(accountId, newId()), principal(accountId, newId())];
    const latencies = [5, 10, 15, 20, 25, 30, 35, 40, 45, 500];
    latencies.forEach((latency, index) => {
      const key = principal(accountId, keyA.keyId); // one principal object per request, as the guard does
      recorder.started(key, clock.now());
      recorder.finished(outcome(key, index === 9 ? 503 : 200, latency));
    });
    recorder.started(keyA, clock.now()); // in flight
    recorder.started(keyB, clock.now());
    recorder.finished(outcome(keyB, 429, 2, true));

    const result = await runJob();
    expect(result.hours).toContain('2026-03-10T10:00:00.000Z');
    const written: Array<Record<string, unknown>> = await rows(accountId);
    expect(written).toHaveLength(2);
    const a = written.find((row) => row.api_key_id === keyA.keyId)!;
    const b = written.find((row) => row.api_key_id === keyB.keyId)!;
    expect(a).toMatchObject({
      api_key_id: keyA.keyId,
      bucket_start: new Date('2026-03-10T10:00:00.000Z'),
      request_count: 11,
      status_2xx: 9,
      status_4xx: 0,
      status_5xx: 1,
      rate_limited_count: 0,
      status_unknown: 1,
      closed: false,
    });
    expect(Math.abs((a.latency_p50_ms as number) - 25)).toBeLessThanOrEqual(0.25 + 0.01); // nearest rank 5 of 9: 25 ms ± 1 %
    expect(a.latency_p99_ms as number).toBeGreaterThan(490);
    expect(Object.values(a.latency_histogram as Record<string, number>).reduce((sum, count) => sum + count, 0)).toBe(10);
    expect(b).toMatchObject({ api_key_id: keyB.keyId, request_count: 1, rate_limited_count: 1, status_4xx: 0, status_unknown: 0 });
  });

  it('closes the previous hour after its grace; an outcome recorded later reopens and corrects it', async () => {
    clock.set(new Date('2026-03-10T11:58:00.000Z'));
    const accountId = newId();
    const key = principal(accountId, newId());
    recorder.started(key, clock.now());
    await runJob();
    expect(await rows(accountId)).toEqual([expect.objectContaining({ request_count: 1, status_unknown: 1, closed: false })]);

    clock.set(new Date('2026-03-10T12:06:00.000Z'));
    const closing = await runJob();
    expect(closing.closedHours).toContain('2026-03-10T11:00:00.000Z');
    expect(await rows(accountId)).toEqual([expect.objectContaining({ request_count: 1, status_unknown: 1, closed: true })]);

    // The request path gives finished() the instant the request started (07 minutes ago).
    recorder.finished({ ...outcome(key, 200, 420_000), startedAt: new Date('2026-03-10T11:58:00.000Z') });
    clock.set(new Date('2026-03-10T12:08:00.000Z'));
    await runJob();
    expect(await rows(accountId)).toEqual([expect.objectContaining({ request_count: 1, status_2xx: 1, status_unknown: 0, closed: true })]);
  });
});
