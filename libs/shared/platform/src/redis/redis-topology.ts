import { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';

/** A seed node of `REDIS_CLUSTER_NODES`. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Where the process's Redis lives, from `REDIS_URL` or `REDIS_CLUSTER_NODES` (the latter wins):
 * - `single`: one server (or a Sentinel/managed primary behind one address), `redis://` or `rediss://`;
 * - `cluster`: a Redis Cluster reached through ioredis `Cluster` from seed nodes, following MOVED/ASK and
 *   failovers; `tls` and the credentials apply to every node.
 */
export type RedisTopology =
  | { mode: 'single'; url: string }
  | { mode: 'cluster'; nodes: RedisNode[]; tls: boolean; username: string | undefined; password: string | undefined };

/** Every Redis client of the service, whatever the topology (both have the same command API). */
export type RedisClient = Redis | Cluster;

/**
 * Parses `REDIS_CLUSTER_NODES`: comma-separated `host:port` or `redis[s]://[user:password@]host:port`
 * entries. TLS (`rediss://`) and credentials are taken from the entries that give them and apply to all.
 * @returns the nodes, or a problem line `REDIS_CLUSTER_NODES=…: expected …` for a ConfigError.
 */
export function parseClusterNodes(raw: string): { nodes: RedisNode[]; tls: boolean; username?: string; password?: string } | string {
  const shown = raw.includes('@') ? `(hidden, ${raw.length} characters)` : JSON.stringify(raw); // credentials stay out of logs
  const expected = `REDIS_CLUSTER_NODES=${shown}: expected comma-separated host:port seed nodes (or redis[s]://[user:password@]host:port), one scheme for all`;
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) return expected;
  const nodes: RedisNode[] = [];
  const schemes = new Set<string>();
  let username: string | undefined;
  let password: string | undefined;
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(/^[a-z]+:\/\//i.test(entry) ? entry : `redis://${entry}`);
    } catch {
      return expected;
    }
    const port = Number(url.port);
    if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname || !Number.isInteger(port) || port < 1 || port > 65_535) return expected;
    if (url.pathname.length > 1 && url.pathname !== '/0') return `REDIS_CLUSTER_NODES=${shown}: expected no database number (a cluster has database 0 only)`;
    schemes.add(url.protocol);
    if (url.username) username = decodeURIComponent(url.username);
    if (url.password) password = decodeURIComponent(url.password);
    nodes.push({ host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port });
  }
  if (schemes.size > 1) return expected;
  return { nodes, tls: schemes.has('rediss:'), username, password };
}

/** ioredis options of a `redis[s]://[user:pass@]host:port/db` URL, the scheme's TLS included (ioredis drops it when given host and port). */
export function redisUrlOptions(redisUrl: string): { host: string; port: number; username?: string; password?: string; db: number; tls?: object } {
  const url = new URL(redisUrl);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** Per-node options ioredis `Cluster` takes in `redisOptions` (the rest are the cluster's own). */
const CLUSTER_LEVEL_OPTIONS = ['enableOfflineQueue', 'lazyConnect', 'enableAutoPipelining', 'autoPipeliningIgnoredCommands', 'enableReadyCheck'] as const;

/**
 * A client of `topology` with `options` (ioredis `RedisOptions`): a `Redis` for `single`, a `Cluster` for
 * `cluster` whose nodes get `options` (minus the cluster-level ones, applied to the cluster), TLS and the
 * credentials. The cluster client reads and writes on masters only, refreshes its slot map every 5 s and on
 * every MOVED, and retries a command through a failover (`retryDelayOnFailover` 200 ms, up to 16 redirections).
 */
export function createRedisClient(topology: RedisTopology, options: RedisOptions = {}): RedisClient {
  if (topology.mode === 'single') return new Redis(topology.url, options); // ioredis reads rediss:// as TLS
  const nodeOptions: Record<string, unknown> = { ...options };
  const clusterOptions: ClusterOptions = {
    scaleReads: 'master',
    slotsRefreshInterval: 5000,
    slotsRefreshTimeout: 2000,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    maxRedirections: 16,
    clusterRetryStrategy: (times: number) => Math.min(100 * times, 2000),
  };
  for (const name of CLUSTER_LEVEL_OPTIONS) {
    if (name in nodeOptions) (clusterOptions as Record<string, unknown>)[name] = nodeOptions[name];
    delete nodeOptions[name];
  }
  delete nodeOptions.retryStrategy;
  delete nodeOptions.host;
  delete nodeOptions.port;
  delete nodeOptions.db;
  clusterOptions.redisOptions = {
    ...(nodeOptions as ClusterOptions['redisOptions']),
    username: topology.username,
    password: topology.password,
    ...(topology.tls ? { tls: {} } : {}),
  };
  return new Cluster(
    topology.nodes.map((node) => ({ host: node.host, port: node.port })),
    clusterOptions,
  );
}

/**
 * The BullMQ queue prefix of `queue` (BullMQ keys are `<prefix>:<queue>:<suffix>`): `<prefix>:bull` on a
 * single Redis (the layout every existing deployment has), `{<prefix>:<queue>}` on a cluster, so each queue's
 * keys share one hash slot (BullMQ's scripts touch several keys of a queue) and different queues land on
 * different slots, hence shards.
 */
export function queuePrefix(redisPrefix: string, queue: string, clustered: boolean): string {
  return clustered ? `{${redisPrefix}:${queue}}` : `${redisPrefix}:bull`;
}

/** Cluster hash slot of `key` (CRC16/XMODEM of its hash tag, or of the whole key, mod 16384), as Redis computes it. */
export function hashSlot(key: string): number {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const byte of Buffer.from(key, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16_384;
}
