import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FixedClock } from '@leadflow/shared-kernel';
import { hashSlot } from '@leadflow/shared-platform';
import { pollUntil, PrivateRedisCluster } from '@leadflow/shared-testing';
// The real worker app (outbox relay and processors), booted beside the api on the same services.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorker } from '../../worker/src/bootstrap';
import { createApiApp } from '../src/bootstrap';
import { db } from './support/contacts-fixtures';
import { captureLead, freshPhone, leadsBlueprint } from './support/lead-capture-fixtures';
import { ProvisionedAccount, TestApi } from './support/test-api';

/**
 * Leadflow on a private Redis Cluster of 3 masters + 3 replicas (docs/adr/0006): every client connects
 * through ioredis `Cluster` (REDIS_CLUSTER_NODES), each BullMQ queue has its own hash tag so queues spread
 * over shards, one request's counters share a slot, a failover costs seconds and loses nothing, and a quota
 * store that cannot count is never silent. The prefix is fixed (the cluster is this file's own) so the queue
 * spread is deterministic.
 */
describe('Redis Cluster: 3 masters + 3 replicas', () => {
  const clock = new FixedClock(new Date('2026-05-14T13:00:00.000Z'));
  const prefix = 'lfcluster';
  let cluster: PrivateRedisCluster;
  let api: TestApi;
  let secondApi: NestFastifyApplication;
  let worker: INestApplicationContext;
  let account: ProvisionedAccount;
  const captured: string[] = [];

  beforeAll(async () => {
    cluster = await PrivateRedisCluster.start();
    const env = { REDIS_CLUSTER_NODES: cluster.seeds, REDIS_PREFIX: prefix, API_PROCESSES: '2' };
    api = await TestApi.start(env, clock);
    secondApi = await createApiApp(api.services.config(env), clock);
    worker = await createWorker(api.services.config({ ...env, OUTBOX_RELAY_INTERVAL_MS: '100' }), clock);
    account = await api.provision(
      leadsBlueprint({
        api_keys: [
          { name: 'capture', preset: 'lead_capture', per_hour: 100000 },
          { name: 'small', preset: 'full_integration', per_hour: 5 },
        ],
      }),
    );
  }, 90_000);

  afterAll(async () => {
    await worker?.close();
    await secondApi?.close();
    await api?.close();
    await cluster?.dispose();
  }, 30_000);

  async function capture(): Promise<number> {
    const response = await captureLead(api, account.api_keys.capture.key, { first_name: 'Amélie', phone: freshPhone().raw, sms_consent: true });
    if (response.status === 200) captured.push(response.body.contact_id as string);
    else process.stdout.write(`capture answered ${response.status} ${JSON.stringify(response.body)}\n`);
    return response.status;
  }

  /** Waits until every lead_created event of the account is relayed and recorded by at least one consumer; returns the count. */
  async function allEventsConsumed(timeoutMs: number): Promise<number> {
    let events = 0;
    await pollUntil(
      'every lead_created relayed and consumed',
      async () => {
        const [row] = await db(api).query<{ total: number; relayed: number; consumed: number }>(
          `SELECT count(*)::int AS total, count(o.relayed_at)::int AS relayed,
                  count(*) FILTER (WHERE EXISTS (SELECT 1 FROM platform.event_inbox i WHERE i.event_id = o.id))::int AS consumed
             FROM platform.outbox o WHERE o.account_id = $1 AND o.type = 'lead_created'`,
          [account.account_id],
        );
        events = row?.total ?? 0;
        return events >= captured.length && row?.relayed === events && row?.consumed === events;
      },
      timeoutMs,
      200,
    );
    return events;
  }

  it('captures succeed and their lead_created events are relayed through the cluster and consumed', async () => {
    const statuses = await Promise.all(Array.from({ length: 20 }, () => capture()));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await allEventsConsumed(30_000)).toBe(20);
  }, 60_000);

  it('gives every queue its own hash tag {<prefix>:<queue>} and spreads the queues over all three masters', async () => {
    const masters = await cluster.masterPorts();
    expect(masters).toHaveLength(3);
    const queuesByMaster = new Map<number, Set<string>>();
    for (const port of masters) {
      // BullMQ keys: {<prefix>:<queue>}:<queue>:<suffix>
      const keys = (await cluster.scan(port, `{${prefix}:*`)).filter((key) => /^\{[^:]+:([^}]+)\}:\1:/.test(key));
      queuesByMaster.set(port, new Set(keys.map((key) => /^\{[^:]+:([^}]+)\}/.exec(key)![1]!).filter((tag) => tag !== 'usage'))); // usage counters: {<prefix>:usage}:usage:…
    }
    const perMaster = masters.map((port) => queuesByMaster.get(port)?.size ?? 0);
    process.stdout.write(`queues per master: ${masters.map((port) => `${port}: ${[...(queuesByMaster.get(port) ?? [])].sort().join(' ')}`).join(' | ')}\n`);
    expect(perMaster.every((count) => count > 0)).toBe(true);
    // no queue split between shards
    const seen = new Set<string>();
    for (const queues of queuesByMaster.values()) for (const queue of queues) {
      expect(seen.has(queue)).toBe(false);
      seen.add(queue);
    }
    expect(seen.size).toBeGreaterThanOrEqual(6);
  }, 30_000);

  it('enforces a per_hour quota of 5 across two api processes on the cluster: 5 admitted, never 2 x 5', async () => {
    const apps = [api.app, secondApi];
    const statuses = await Promise.all(
      Array.from({ length: 14 }, async (_, index) => {
        const response = await apps[index % 2]!.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${account.api_keys.small.key}` } });
        return response.statusCode;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
    const ready = await api.request({ path: '/health/ready' });
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ redis: 'ok', quota_store: 'ok' });
  }, 30_000);

  it('keeps working within seconds of a CLUSTER FAILOVER, and no event is lost', async () => {
    const masters = await cluster.masterPorts();
    const before = captured.length;
    let failures = 0;
    let stop = false;
    // captures keep coming during the failover (one at a time, as fast as they are answered)
    const traffic = (async () => {
      while (!stop) {
        if ((await capture()) !== 200) failures += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const { tookMs } = await cluster.failover(masters[0]!);
    const switched = Date.now();
    // the service is ready again: keyed writes on every master and the quota store counting in Redis
    const recoveredMs = await pollUntil('api ready after failover', async () => (await api.request({ path: '/health/ready' })).status === 200, 15_000, 100);
    stop = true;
    await traffic;
    process.stdout.write(`failover: promoted in ${tookMs} ms, api ready ${recoveredMs} ms later, ${captured.length - before} captures during, ${failures} failed\n`);
    expect(failures).toBe(0);
    expect(Date.now() - switched).toBeLessThan(15_000);
    // after the switch: captures whose events go through the queues of the promoted master too
    const statuses = await Promise.all(Array.from({ length: 10 }, () => capture()));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const drainedMs = Date.now() - switched;
    expect(await allEventsConsumed(30_000)).toBe(captured.length);
    process.stdout.write(`failover: every event relayed and consumed ${Date.now() - switched} ms after the switch (captures sent at ${drainedMs} ms)\n`);
  }, 90_000);

  it('answers /health/ready 503 naming quota_store while the quota store cannot count, and exports the fallback', async () => {
    // Writes paused on the master of the account's counters: the limiter script times out (1 s) and the
    // requests count in process meanwhile.
    const slot = hashSlot(`{${prefix}:${account.account_id}}`);
    const nodes = await cluster.nodes();
    const owner = nodes.find((node) => node.role === 'master' && node.slots.some(([first, last]) => slot >= first && slot <= last));
    expect(owner).toBeDefined();
    await cluster.command(owner!.port, 'CLIENT', 'PAUSE', 6000, 'WRITE');
    const pausedAt = Date.now();
    const during = await api.request({ method: 'GET', path: '/v1/me', token: account.api_keys.capture.key });
    expect(during.status).toBe(200); // admitted by the in-process fallback, not refused
    const ready = await api.request({ path: '/health/ready' });
    expect(Date.now() - pausedAt).toBeLessThan(6000);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.quota_store).toBe('down');
    const metrics = await api.request({ path: '/metrics' });
    expect(String(metrics.body)).toMatch(/^leadflow_quota_store_fallback 1$/m);
    expect(String(metrics.body)).toMatch(/^leadflow_quota_store_fallbacks_total [1-9]/m);
    // once writes resume, the readiness probe finds the store counting again
    await pollUntil('quota store back', async () => (await api.request({ path: '/health/ready' })).status === 200, 20_000, 200);
    const after = await api.request({ path: '/metrics' });
    expect(String(after.body)).toMatch(/^leadflow_quota_store_fallback 0$/m);
  }, 60_000);
});
