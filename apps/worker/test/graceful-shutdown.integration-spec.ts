import { BullModule, Processor, WorkerHost } from '@nestjs/bullmq';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { bullConnection, OutboxRelay, RedisConnection } from '@leadflow/shared-platform';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { WorkerModule } from '../src/worker.module';

const SLOW_QUEUE = 'shutdown-probe';
const events: string[] = [];

/** A job that still needs PostgreSQL and Redis at its end, after the shutdown began. */
@Processor(SLOW_QUEUE)
class SlowProcessor extends WorkerHost {
  constructor(
    private readonly db: DataSource,
    private readonly redis: RedisConnection,
  ) {
    super();
  }

  async process(job: Job<{ ms: number }>): Promise<string> {
    events.push('job started');
    await new Promise((resolve) => setTimeout(resolve, job.data.ms));
    const [{ answer }] = await this.db.query('SELECT 42 AS answer');
    await this.redis.client.set(this.redis.key('shutdown-probe'), String(answer));
    events.push('job finished');
    return 'done';
  }
}

@Module({ imports: [BullModule.registerQueue({ name: SLOW_QUEUE })], providers: [SlowProcessor] })
class SlowJobsModule {}

/** Worker shutdown (SIGINT/SIGTERM run the same sequence as close()): relay stops, active jobs finish, then connections close. */
describe('worker graceful shutdown', () => {
  let services: TestServices;
  let app: INestApplicationContext;
  let queue: Queue;

  beforeAll(async () => {
    services = await createTestServices();
    @Module({ imports: [WorkerModule.forRoot({ config: services.config() }), SlowJobsModule] })
    class WorkerUnderTest {}
    app = await NestFactory.createApplicationContext(WorkerUnderTest, { logger: false, abortOnError: false });
    await app.init();
    queue = new Queue(SLOW_QUEUE, { connection: bullConnection(services.redisUrl), prefix: `${services.redisPrefix}:bull` });
  });

  afterAll(async () => {
    await queue.close();
    await services.dispose();
  });

  it('stops the outbox relay, lets the active job finish, then closes', async () => {
    const relay = app.get(OutboxRelay);
    expect(relay.isRunning).toBe(true);
    const job = await queue.add('probe', { ms: 800 });
    const deadline = Date.now() + 5000;
    while (!events.includes('job started') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(['job started']);

    await app.close();
    events.push('closed');

    expect(relay.isRunning).toBe(false);
    expect(events).toEqual(['job started', 'job finished', 'closed']);
    const finished = await queue.getJob(job.id!);
    expect(await finished?.getState()).toBe('completed');
    expect(finished?.returnvalue).toBe('done');
    const redis = new Redis(services.redisUrl);
    expect(await redis.get(`${services.redisPrefix}:shutdown-probe`)).toBe('42');
    redis.disconnect();
  });
});
