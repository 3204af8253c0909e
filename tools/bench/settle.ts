import { Redis } from 'ioredis';
import { Client } from 'pg';

/** Longest wait for the worker to drain what a write scenario left (milliseconds). */
const SETTLE_TIMEOUT_MS = 180_000;

/**
 * Waits, between scenarios, until the service is idle again: no unrelayed row in the api's
 * `platform.outbox` and no BullMQ job waiting, delayed or active under `<REDIS_PREFIX>:bull`. A write
 * scenario leaves the worker several seconds of events to process (relay, webhooks, automations,
 * follow-ups); measuring the next scenario while that runs would charge the worker's backlog to it.
 * Returns the seconds waited, or null when the api's database or prefix is not known (no settling).
 */
export async function settle(databaseUrl: string | null, redisUrl: string, redisPrefix: string | null): Promise<number | null> {
  if (!databaseUrl || !redisPrefix) return null;
  const started = Date.now();
  const pg = new Client({ connectionString: databaseUrl });
  const redis = new Redis(redisUrl, { lazyConnect: true });
  try {
    await pg.connect();
    await redis.connect();
    while (Date.now() - started < SETTLE_TIMEOUT_MS) {
      const [{ backlog }] = (await pg.query('SELECT count(*)::int AS backlog FROM platform.outbox WHERE relayed_at IS NULL')).rows;
      let jobs = 0;
      for (const suffix of ['wait', 'active', 'prioritized', 'paused']) {
        for (const key of await redis.keys(`${redisPrefix}:bull:*:${suffix}`)) {
          const type = await redis.type(key);
          jobs += type === 'list' ? await redis.llen(key) : type === 'zset' ? await redis.zcard(key) : 0;
        }
      }
      if (backlog === 0 && jobs === 0) return Math.round((Date.now() - started) / 100) / 10;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return Math.round((Date.now() - started) / 100) / 10;
  } finally {
    await pg.end().catch(() => undefined);
    redis.disconnect();
  }
}
