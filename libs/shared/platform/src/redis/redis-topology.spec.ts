import { AppConfig, ConfigError } from '../config/app-config';
import { bullRootOptions, QUEUE_NAME_PLACEHOLDER } from '../queue/queue.module';
import { hashSlot, parseClusterNodes, queuePrefix, redisUrlOptions } from './redis-topology';

const QUEUES = ['integration-events.webhooks', 'integration-events.automations', 'webhook-delivery', 'email-delivery', 'automation-executions', 'usage-aggregation'];

describe('Redis topology (docs/adr/0006)', () => {
  it('hashSlot agrees with Redis CLUSTER KEYSLOT (known values) and hashes only the hash tag', () => {
    expect(hashSlot('foo')).toBe(12182);
    expect(hashSlot('123456789')).toBe(12739);
    expect(hashSlot('{user1000}.following')).toBe(hashSlot('{user1000}.followers'));
    expect(hashSlot('foo{}{bar}')).toBe(hashSlot('foo{}{bar}')); // empty tag: the whole key
  });

  it('REDIS_CLUSTER_NODES set: the cluster topology, REDIS_URL not used; unset: REDIS_URL as before', () => {
    const cluster = new AppConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7001', REDIS_URL: 'redis://elsewhere:6379/3' });
    expect(cluster.redisTopology).toEqual({ mode: 'cluster', nodes: [{ host: '10.0.0.1', port: 7000 }, { host: '10.0.0.2', port: 7001 }], tls: false, username: undefined, password: undefined });
    expect(new AppConfig({ REDIS_URL: 'redis://h:6380/2' }).redisTopology).toEqual({ mode: 'single', url: 'redis://h:6380/2' });
  });

  it('TLS and credentials of rediss:// seeds reach every cluster node; rediss:// REDIS_URL reaches BullMQ and the relay', () => {
    expect(parseClusterNodes('rediss://app:s%40cret@a:7000,rediss://b:7001')).toEqual({ nodes: [{ host: 'a', port: 7000 }, { host: 'b', port: 7001 }], tls: true, username: 'app', password: 's@cret' });
    expect(redisUrlOptions('rediss://:pw@cache:6390/1')).toEqual({ host: 'cache', port: 6390, username: undefined, password: 'pw', db: 1, tls: {} });
    expect(redisUrlOptions('redis://cache')).not.toHaveProperty('tls');
  });

  it('start-up refuses, one line naming the setting: a tagged REDIS_PREFIX on a cluster, bad seeds, mixed schemes', () => {
    const problems = (env: Record<string, string>) => {
      try {
        new AppConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_PREFIX: '{leadflow}' })).toEqual([expect.stringMatching(/^REDIS_PREFIX="\{leadflow\}": expected no '\{' or '\}' with REDIS_CLUSTER_NODES/)]);
    expect(problems({ REDIS_CLUSTER_NODES: 'a' })).toEqual([expect.stringMatching(/^REDIS_CLUSTER_NODES="a": expected comma-separated host:port/)]);
    expect(problems({ REDIS_CLUSTER_NODES: 'redis://a:1,rediss://b:2' })).toHaveLength(1);
    expect(problems({ REDIS_CLUSTER_NODES: 'redis://u:secret@a:1,' })).toEqual([]);
    expect(problems({ REDIS_CLUSTER_NODES: 'redis://u:secret@a' })[0]).not.toContain('secret');
    expect(problems({ REDIS_PREFIX: '{leadflow}' })).toEqual([]); // a single Redis keeps accepting it
  });

  it('queues: <prefix>:bull on a single Redis (existing layout), {<prefix>:<queue>} on a cluster, one slot per queue, queues on different slots', () => {
    expect(queuePrefix('leadflow', 'webhook-delivery', false)).toBe('leadflow:bull');
    expect(bullRootOptions(new AppConfig({}), null).prefix).toBe('leadflow:bull');
    expect(bullRootOptions(new AppConfig({ REDIS_CLUSTER_NODES: 'a:7000' }), {} as never).prefix).toBe(`{leadflow:${QUEUE_NAME_PLACEHOLDER}}`);
    for (const queue of QUEUES) {
      const prefix = queuePrefix('leadflow', queue, true);
      expect(new Set(['wait', 'active', 'meta', 'id', 'events', 'marker'].map((suffix) => hashSlot(`${prefix}:${queue}:${suffix}`))).size).toBe(1);
    }
    expect(new Set(QUEUES.map((queue) => hashSlot(queuePrefix('leadflow', queue, true)))).size).toBe(QUEUES.length);
  });
});
