import { Client } from 'pg';
import { ReadReplicaRouter, runMigrations } from '@leadflow/shared-platform';
import { PrivatePostgresReplicaPair } from '@leadflow/shared-testing';
import { ALL_MIGRATIONS } from '../src/database/all-migrations';
import { contactsBlueprint, expectStatus } from './support/contacts-fixtures';
import { sampleValue } from './support/prometheus-text';
import { ProvisionedAccount, TestApi } from './support/test-api';

/** The replica replays each commit this long after the primary (recovery_min_apply_delay): a real lag. */
const APPLY_DELAY_MS = 250;
const PAIRS = 150;

/** Polls `probe` until it returns a value other than undefined, or throws `what` at the deadline. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Read replicas with read-your-writes (docs/adr/0007), on real processes: a private PostgreSQL primary and
 * a streaming replica that applies each commit 250 ms late, and two apis (two nodes: one Redis prefix,
 * each its own pools and poller) with DATABASE_READ_URLS naming the replica.
 */
describe('read replicas: DATABASE_READ_URLS with read-your-writes', () => {
  let pair: PrivatePostgresReplicaPair;
  let apiA: TestApi;
  let apiB: TestApi;
  let account: ProvisionedAccount;
  let writer: string;
  let reader: string;

  const reads = (api: TestApi, key: string) => api.app.get(ReadReplicaRouter).readCounts().get(key) ?? 0;
  const readsOnBoth = (key: string) => reads(apiA, key) + reads(apiB, key);
  const ready = async (api: TestApi) => expectStatus(await api.request({ path: '/health/ready' }), 200).body;
  const replicaState = async (api: TestApi) => (await ready(api)).read_replicas.replicas[0].state as string;

  beforeAll(async () => {
    pair = await PrivatePostgresReplicaPair.start('leadflow_replicas', async (url) => {
      await runMigrations(url, ALL_MIGRATIONS);
    });
    await pair.setReplicaApplyDelay(APPLY_DELAY_MS);
    const env = {
      DATABASE_URL: pair.primaryUrl('leadflow_replicas'),
      DATABASE_READ_URLS: pair.replicaUrl('leadflow_replicas'),
      DATABASE_READ_POLL_INTERVAL_MS: '100',
    };
    apiA = await TestApi.start(env);
    apiB = await TestApi.start({ ...env, REDIS_PREFIX: apiA.services.redisPrefix });
    account = await apiA.provision(contactsBlueprint());
    writer = account.api_keys.full!.key;
    reader = account.api_keys.reader!.key;
    // The replica has replayed the provisioning before the tests start.
    await eventually('the replica is ready and caught up', async () => ((await replicaState(apiA)) === 'ok' && (await replicaState(apiB)) === 'ok' ? true : undefined));
  }, 120_000);

  afterAll(async () => {
    await apiB?.close();
    await apiA?.close();
    pair?.dispose();
  });

  it(`a key reads its own write immediately after a 200 (read-your-writes) on every read: ${PAIRS} create-then-read pairs across two apis`, async () => {
    const before = readsOnBoth('primary|own_write');
    let found = 0;
    for (let index = 0; index < PAIRS; index++) {
      const [write, read] = index % 2 === 0 ? [apiA, apiB] : [apiB, apiA];
      const created = expectStatus(await write.request({ method: 'POST', path: '/v1/contacts', token: writer, body: { email: `ryw-${index}@replica.test`, first_name: 'Lea' } }), 201);
      const response = await read.request({ path: `/v1/contacts/${created.body.data.id}`, token: writer });
      if (response.status === 200 && response.body.data.id === created.body.data.id) found++;
    }
    expect(found).toBe(PAIRS);
    // The replica was behind for those reads (250 ms apply delay): the primary served them because of the write.
    expect(readsOnBoth('primary|own_write') - before).toBeGreaterThanOrEqual(PAIRS);
  }, 60_000);

  it('control: another key, which did not write, may read from the lagging replica and miss the row (the rule is per key)', async () => {
    let missed = 0;
    for (let index = 0; index < 20; index++) {
      const created = expectStatus(await apiA.request({ method: 'POST', path: '/v1/contacts', token: writer, body: { email: `control-${index}@replica.test` } }), 201);
      const response = await apiB.request({ path: `/v1/contacts/${created.body.data.id}`, token: reader });
      if (response.status === 404) missed++;
    }
    expect(missed).toBeGreaterThan(0);
  }, 60_000);

  it('reads without a recent write go to the replica (metric and pg_stat_activity application_name)', async () => {
    const list = await eventually('a read of a key without writes is served by the replica', async () => {
      const before = reads(apiA, 'replica|replica');
      const response = expectStatus(await apiA.request({ path: '/v1/contacts', token: reader, query: { limit: '5' } }), 200);
      return reads(apiA, 'replica|replica') > before ? response : undefined;
    });
    expect(list.body.data.length).toBeGreaterThan(0);
    const before = reads(apiA, 'replica|replica');
    for (let index = 0; index < 20; index++) expectStatus(await apiA.request({ path: '/v1/contacts', token: reader }), 200);
    expect(reads(apiA, 'replica|replica') - before).toBeGreaterThanOrEqual(20);

    const metrics = expectStatus(await apiA.request({ path: '/metrics' }), 200).raw.body;
    expect(sampleValue(metrics, 'leadflow_db_reads_total', { target: 'replica', reason: 'replica' })).toBeGreaterThanOrEqual(20);
    expect(sampleValue(metrics, 'leadflow_db_replica_up', { replica: `127.0.0.1:${pair.replica.port}/leadflow_replicas` })).toBe(1);

    const replica = new Client({ connectionString: pair.replicaUrl('postgres') });
    await replica.connect();
    try {
      const { rows } = await replica.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'leadflow-read'");
      expect(rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await replica.end();
    }
  }, 60_000);

  it('a replica lagging past DATABASE_READ_MAX_LAG_MS is skipped', async () => {
    await pair.setReplicaApplyDelay(8000);
    try {
      expectStatus(await apiA.request({ method: 'POST', path: '/v1/contacts', token: writer, body: { email: 'lagging@replica.test' } }), 201);
      await eventually('the replica is reported lagging', async () => ((await replicaState(apiA)) === 'lagging' ? true : undefined), 6000);
      const report = await ready(apiA);
      expect(report.status).toBe('ok');
      expect(report.read_replicas.status).toBe('degraded');
      expect(report.read_replicas.replicas[0].lag_ms).toBeGreaterThan(1000);
      const [lagBefore, replicaBefore] = [reads(apiA, 'primary|lag'), reads(apiA, 'replica|replica')];
      for (let index = 0; index < 10; index++) {
        // A key without writes reads the contact written during the lag: the primary serves it.
        const list = expectStatus(await apiA.request({ path: '/v1/contacts', token: reader, query: { search: 'lagging@replica.test' } }), 200);
        expect(list.body.data.map((contact: { email: string }) => contact.email)).toContain('lagging@replica.test');
      }
      expect(reads(apiA, 'primary|lag') - lagBefore).toBeGreaterThanOrEqual(10);
      expect(reads(apiA, 'replica|replica') - replicaBefore).toBe(0);
    } finally {
      await pair.setReplicaApplyDelay(APPLY_DELAY_MS);
    }
    await eventually('the replica serves again once caught up', async () => ((await replicaState(apiA)) === 'ok' ? true : undefined));
  }, 60_000);

  it('a replica down: the primary serves, no 5xx, /health/ready stays ready (degraded) and the replica serves again once back', async () => {
    pair.stopReplica();
    const statuses: number[] = [];
    for (let index = 0; index < 40; index++) {
      const api = index % 2 === 0 ? apiA : apiB;
      statuses.push((await api.request({ path: '/v1/contacts', token: reader })).status);
      const created = await api.request({ method: 'POST', path: '/v1/contacts', token: writer, body: { email: `down-${index}@replica.test` } });
      statuses.push(created.status);
      statuses.push((await api.request({ path: `/v1/contacts/${created.body?.data?.id}`, token: writer })).status);
    }
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200, 201]));
    const report = await eventually('the replica is reported down', async () => {
      const body = await ready(apiA);
      return body.read_replicas.replicas[0].state === 'down' ? body : undefined;
    });
    expect(report).toMatchObject({ status: 'ok', checks: { postgres: 'ok' }, read_replicas: { status: 'degraded', replicas: [{ state: 'down', lag_ms: null }] } });

    await pair.startReplica();
    await eventually('the replica serves again', async () => {
      const before = reads(apiB, 'replica|replica');
      expectStatus(await apiB.request({ path: '/v1/contacts', token: reader }), 200);
      return reads(apiB, 'replica|replica') > before ? true : undefined;
    });
    expect((await ready(apiB)).read_replicas.status).toBe('ok');
  }, 90_000);
});
