import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { AppConfig, ensureDatabase, runMigrations } from '@leadflow/shared-platform';

/**
 * Test infrastructure (ARCHITECTURE › Tests): PostgreSQL and Redis come from testcontainers when a
 * Docker engine answers, else from `DATABASE_URL` / `REDIS_URL` (default: the local services).
 * Migrations run once into a template database; each test file clones its own database from it
 * and uses its own Redis key prefix, so files run in parallel without sharing state.
 */
const TEMPLATE_ENV = 'LEADFLOW_TEST_TEMPLATE_URL';

interface StartedContainer {
  stop(): Promise<unknown>;
}

async function dockerAnswers(): Promise<boolean> {
  if (process.env.TESTCONTAINERS === 'false') return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([
      getContainerRuntimeClient(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('docker probe timeout')), 5000).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}

/** Jest globalSetup body: provisions services and the migrated template. Returns a teardown. */
export async function prepareTestServices(migrations: Function[]): Promise<() => Promise<void>> {
  const containers: StartedContainer[] = [];
  if (await dockerAnswers()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const { RedisContainer } = await import('@testcontainers/redis');
    const [postgres, redis] = await Promise.all([
      new PostgreSqlContainer('postgres:15-alpine').withUsername('postgres').withPassword('postgres').start(),
      new RedisContainer('redis:7-alpine').start(),
    ]);
    containers.push(postgres, redis);
    process.env.DATABASE_URL = postgres.getConnectionUri();
    process.env.REDIS_URL = redis.getConnectionUrl();
  }
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/leadflow');
  base.pathname = `/leadflow_test_template_${process.pid}`;
  const templateUrl = base.toString();
  await dropDatabase(templateUrl);
  await ensureDatabase(templateUrl);
  await runMigrations(templateUrl, migrations);
  process.env[TEMPLATE_ENV] = templateUrl;
  return async () => {
    await dropDatabase(templateUrl).catch(() => undefined);
    await Promise.all(containers.map((container) => container.stop()));
  };
}

function adminUrl(databaseUrl: string): { admin: string; name: string } {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  return { admin: url.toString(), name };
}

async function dropDatabase(databaseUrl: string): Promise<void> {
  const { admin, name } = adminUrl(databaseUrl);
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** A database cloned from the migrated template, and a unique Redis prefix, for one test file. */
export interface TestServices {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  /** Configuration for apps under test (operator API enabled with token `test-admin-token`). */
  config(overrides?: Record<string, string | undefined>): AppConfig;
  dispose(): Promise<void>;
}

export const TEST_ADMIN_TOKEN = 'test-admin-token';

/** Clones a fresh database for the calling test file (call in `beforeAll`, dispose in `afterAll`). */
export async function createTestServices(): Promise<TestServices> {
  const templateUrl = process.env[TEMPLATE_ENV];
  if (!templateUrl) throw new Error(`${TEMPLATE_ENV} is not set: run the tests through the root jest config (npm test)`);
  const suffix = randomBytes(6).toString('hex');
  const { admin, name: template } = adminUrl(templateUrl);
  const url = new URL(templateUrl);
  url.pathname = `/leadflow_test_${suffix}`;
  const databaseUrl = url.toString();
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    // CREATE DATABASE … TEMPLATE needs the template to have no other sessions: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "leadflow_test_${suffix}" TEMPLATE "${template}"`);
        break;
      } catch (error) {
        if (attempt >= 20 || (error as { code?: string }).code !== '55006') throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await client.end();
  }
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  const redisPrefix = `lftest_${suffix}`;
  return {
    databaseUrl,
    redisUrl,
    redisPrefix,
    config: (overrides = {}) =>
      new AppConfig({
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        ...overrides,
      }),
    dispose: async () => {
      await dropDatabase(databaseUrl).catch(() => undefined);
      await deleteRedisPrefix(redisUrl, redisPrefix).catch(() => undefined);
    },
  };
}

async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    // quit (not disconnect): disconnect leaves ioredis's 2 s socket-destroy timer running, which kept the
    // Jest worker alive past the end of its suites ("A worker process has failed to exit gracefully").
    const ended = new Promise((resolve) => redis.once('end', resolve));
    await redis.quit().catch(() => redis.disconnect());
    await ended;
  }
}
