import { Cluster } from 'ioredis';
import { RedisConnection } from './redis.connection';
import { hashSlot } from './redis-topology';

/** Lifetime of a readiness key (milliseconds): written on every check, gone soon after the last. */
const READY_KEY_TTL_MS = 10_000;

/**
 * Readiness of Redis for writes: a keyed `SET … PX 10000` that must answer `OK` (a replica answers PING
 * but refuses writes with READONLY, so PING alone called it ready). On a cluster, one key per master, each
 * in a slot that master serves, written through the cluster client: every shard must accept a write, the
 * one whose master is failing over included. Answers the masters written (1 on a single Redis).
 * @throws the Redis error of the first write that failed (READONLY, CLUSTERDOWN, a timeout, …), or an
 *   Error when a cluster has no slot map yet.
 */
export async function checkRedisWritable(redis: RedisConnection): Promise<number> {
  const value = `${process.pid} ${Date.now()}`;
  const keys = redis.clustered ? slotTagsPerMaster(redis.client as Cluster, redis.prefix).map((tag) => redis.slotKey(tag, 'health', 'ready')) : [redis.key('health', 'ready', String(process.pid))];
  if (keys.length === 0) throw new Error('Redis Cluster slot map not known yet');
  const replies = await Promise.all(keys.map((key) => redis.client.set(key, value, 'PX', READY_KEY_TTL_MS)));
  const refused = replies.find((reply) => reply !== 'OK');
  if (refused !== undefined) throw new Error(`Redis answered ${String(refused)} to a readiness write`);
  return keys.length;
}

/**
 * One hash tag per master of `cluster`'s current slot map (`ready:0`, `ready:1`, … the first that lands on
 * each master, tagged as RedisConnection.slotKey tags them: `{<prefix>:<tag>}`), so a check can touch every
 * shard. Empty before the slot map is known.
 */
export function slotTagsPerMaster(cluster: Cluster, prefix = ''): string[] {
  const masters = new Set(cluster.slots.map((owners) => owners?.[0]).filter((owner): owner is string => owner !== undefined));
  const tags = new Map<string, string>();
  for (let index = 0; tags.size < masters.size && index < 100_000; index += 1) {
    const tag = `ready:${index}`;
    const owner = cluster.slots[hashSlot(`{${prefix}:${tag}}`)]?.[0];
    if (owner !== undefined && !tags.has(owner)) tags.set(owner, tag);
  }
  return [...tags.values()];
}
