import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashSlot } from '@leadflow/shared-platform';
import { pollUntil, PrivateRedisCluster } from '@leadflow/shared-testing';
import { CaptureClient, CaptureOutcome } from '../faults/support/capture-client';
import type { LeadSpec } from '../faults/support/fault-plan';
import { PrivatePostgres } from '../faults/support/private-postgres';
import { SupervisedService } from '../faults/support/supervised-service';
import { freePort, PrivatePgBouncer } from '../support/private-pgbouncer';
import { generateCertificate, HttpsReceiver, TestCertificate } from '../support/webhooks-fixtures';
import { PrivateHaproxy } from './support/private-haproxy';
import { PrivatePostgresReplica, runSql } from './support/private-postgres-replica';

/* eslint-disable @typescript-eslint/no-explicit-any -- answer bodies and rows are read member by member */

/**
 * Topology suite (`npm run test:topology`): the production layout of ARCHITECTURE.md › Production topology,
 * built from Debian packages on one machine, every piece the suite's own on free ports (the machine's shared
 * PostgreSQL and Redis are never touched):
 *
 * - PostgreSQL 15 primary (initdb) and one streaming hot-standby replica (pg_basebackup -R);
 * - PgBouncer 1.18 in transaction mode in front of the primary;
 * - a Redis 7 Cluster of 3 masters + 3 replicas;
 * - two Leadflow nodes, each as `npm start` runs it (migrations, API_PROCESSES=2 api processes and a worker
 *   under the supervisor), with DATABASE_URL through PgBouncer, DATABASE_READ_URLS at the replica,
 *   REDIS_CLUSTER_NODES, TRUST_PROXY for HAProxy and a webhook CA;
 * - HAProxy 2.6 in front of both (roundrobin, `option httpchk GET /health/ready`).
 *
 * An account is provisioned with the operator API and subscribed (`"*"`) to a local HTTPS receiver. Then
 * TOPOLOGY_LEADS (default 2,000) captures go through HAProxy, each with its own Idempotency-Key and client
 * address, retried with the same key until acknowledged, while: the replica applies WAL 500 ms late
 * (recovery_min_apply_delay), a Redis master fails over (CLUSTER FAILOVER on its replica), PgBouncer is
 * stopped (both nodes must answer /health/ready 503, postgres down) and started again (200 again), and one
 * node is SIGKILLed whole (its supervisor's process group) so HAProxy routes around it. Read-your-writes runs
 * meanwhile (a contact created through HAProxy is read back at once, with the replica behind).
 *
 * Every check is evaluated and the failing ones are reported together; the figures are printed.
 */

const LEADS = Number(process.env.TOPOLOGY_LEADS ?? 2000);
const MAX_IN_FLIGHT = 24;
const API_PROCESSES = 2;
const PREFIX = 'topology';
const DATABASE = 'leadflow_topology';
const WEBHOOK_PATH = '/topology';
/** Hourly quota of the small keys (one per master's slot range). */
const QUOTA = 20;
const REPLICA_DELAY_MS = 500;
/** Read-your-writes pairs at least (more while the captures last). */
const RYW_MIN_PAIRS = 200;
/** Revoked key refused by each node within this (ms). */
const REVOCATION_LIMIT_MS = 1000;
/** Every event delivered within this after the last capture (ms). */
const SETTLE_MS = 90_000;
/** A lead not acknowledged this long after its first request is given up. */
const LEAD_DEADLINE_MS = 90_000;

/** Settings of the nodes shortened as in the fault suite (retry schedule, sweeps, idempotency lease). */
const SHORTENED = {
  OUTBOX_RELAY_INTERVAL_MS: '100',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  WEBHOOK_SWEEP_GRACE_MS: '2000',
  IDEMPOTENCY_LEASE_MS: '5000',
  STOP_TIMEOUT_MS: '5000',
};

const ROOT = join(__dirname, '..', '..', '..', '..');
/** Whether the apps know DATABASE_READ_URLS yet (read replicas are being built in parallel; until then the replica is only idle). */
const READ_REPLICAS_SUPPORTED = readFileSync(join(ROOT, 'libs/shared/platform/src/config/app-config.ts'), 'utf8').includes('DATABASE_READ_URLS');

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Answer {
  status: number;
  body: any;
}

/** One JSON request; a connection error answers status 0. */
async function call(base: string, method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let parsed: any = text;
    try {
      parsed = text.length > 0 ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed };
  } catch {
    return { status: 0, body: null };
  }
}

let nextAddress = 1;
/** A client address of its own (X-Forwarded-For, believed from 127.0.0.1): per-IP limits never interfere. */
const freshAddress = () => {
  const n = nextAddress++;
  return `10.${200 + ((n >> 16) & 31)}.${(n >> 8) & 255}.${n & 255}`;
};

describe('topology: two Leadflow nodes behind HAProxy, PostgreSQL primary + streaming replica through PgBouncer, Redis Cluster 3+3', () => {
  const adminToken = `topology-${randomBytes(12).toString('hex')}`;
  const runTag = randomBytes(4).toString('hex');
  let primary: PrivatePostgres | undefined;
  let replica: PrivatePostgresReplica | undefined;
  let bouncer: PrivatePgBouncer | undefined;
  let cluster: PrivateRedisCluster | undefined;
  let haproxy: PrivateHaproxy | undefined;
  let certificate: TestCertificate | undefined;
  let receiver: HttpsReceiver | undefined;
  const nodes: SupervisedService[] = [];
  const startedAt = Date.now();
  let bootMs = 0;

  const diagnostics = () =>
    [
      ...nodes.map((node, index) => `--- node ${index + 1} (port ${node.port})\n${node.diagnostics(15)}`),
      '--- haproxy',
      haproxy?.logTail() ?? '',
      '--- replica',
      replica?.logTail(10) ?? '',
    ].join('\n');

  beforeAll(async () => {
    const [primaryPort, replicaPort, ...nodePorts] = [await freePort(), await freePort(), await freePort(), await freePort()];
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    [primary, cluster] = await Promise.all([PrivatePostgres.start(primaryPort!), PrivateRedisCluster.start()]);
    await runSql(primary.url('postgres'), `CREATE DATABASE ${DATABASE}`);
    replica = await PrivatePostgresReplica.start(primary, replicaPort!);
    bouncer = await PrivatePgBouncer.start({ serverPort: primary.port, poolMode: 'transaction', poolSize: 20 });
    haproxy = await PrivateHaproxy.start({ servers: nodePorts.map((port, index) => ({ name: `node${index + 1}`, port: port! })), checkPath: '/health/ready' });
    for (const port of nodePorts) {
      // Node 2 starts once node 1's preparation (migrations) is over, as a deployment runs its migrations once:
      // two `npm start` preparing at the same time deadlock on a pending CREATE INDEX CONCURRENTLY (it waits
      // for the other preparation's transaction, which waits for the preparation lock held by the first).
      if (nodes.length > 0) {
        const first = nodes[0]!;
        await pollUntil('node 1 prepared (migrations run)', () => !first.alive || first.startLines.some((line) => /^\[start\] (api#1|worker) started/.test(line)), 150_000, 100);
        if (!first.alive) throw new Error(`node 1 exited during its preparation\n${first.diagnostics()}`);
      }
      nodes.push(
        new SupervisedService(port!, {
          ...process.env,
          DATABASE_URL: bouncer.url(DATABASE),
          DATABASE_READ_URLS: replica.url(DATABASE),
          REDIS_URL: undefined,
          REDIS_CLUSTER_NODES: cluster.seeds,
          REDIS_PREFIX: PREFIX,
          ADMIN_TOKEN: adminToken,
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_BASE_URL: haproxy.url,
          API_PROCESSES: String(API_PROCESSES),
          SEED_DEMO: 'false',
          LOG_LEVEL: 'warn',
          TRUST_PROXY: '127.0.0.1',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_CA_FILE: certificate.certFile,
          SMTP_URL: undefined,
          ...SHORTENED,
        }),
      );
    }
    // A node is up once /health answers and the supervisor printed its closing block (every api process and the worker ready).
    await Promise.all(nodes.map((node) => node.waitUntilReady(150_000, async () => node.appLines.some((line) => line.includes('Leadflow is ready at')))));
    await pollUntil('HAProxy sees both nodes up', async () => Object.values(await haproxy!.serverStates()).every((state) => state === 'UP'), 20_000, 100);
    bootMs = Date.now() - startedAt;
    console.log(`[topology] built in ${seconds(bootMs)}: primary :${primary.port}, replica :${replica.port}, pgbouncer :${bouncer.port}, redis ${cluster.seeds}, nodes :${nodePorts.join(' :')}, haproxy :${haproxy.port}`);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop(5000).catch(() => undefined)));
    haproxy?.dispose();
    bouncer?.dispose();
    replica?.dispose();
    primary?.dispose();
    await cluster?.dispose().catch(() => undefined);
    await receiver?.stop().catch(() => undefined);
    certificate?.remove();
  }, 60_000);

  it(`${LEADS} captures through HAProxy while a Redis master fails over, PgBouncer restarts, the replica lags and a node dies: nothing lost or doubled`, async () => {
    const base = haproxy!.url;
    const failures: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok) failures.push(what);
      console.log(`[topology] ${ok ? 'ok  ' : 'FAIL'} ${what}`);
    };
    const figures: Record<string, unknown> = { boot_s: Math.round(bootMs / 100) / 10 };
    const primaryUrl = primary!.url(DATABASE);

    // 1. The account (operator API through HAProxy) and a "*" subscription to the HTTPS receiver.
    const blueprint = (name: string, apiKeys: Record<string, unknown>[]) => ({
      name,
      api_terms_accepted: true,
      timezone: 'America/Montreal',
      systems: [{ name: 'Main', is_main: true }],
      pipelines: [{ name: 'Ventes', slug: 'ventes', is_default: true, stages: [{ name: 'Nouveau', slug: 'nouveau', is_default: true }, { name: 'Gagné', slug: 'gagne', is_won: true }] }],
      api_keys: apiKeys,
    });
    const provisioned = await call(base, 'POST', '/admin/v1/accounts', adminToken, blueprint(`Toitures Bergeron – topology ${runTag}`, [
      { name: 'capture', preset: 'lead_capture', per_hour: 1_000_000 },
      { name: 'full', preset: 'full_integration', per_hour: 1_000_000 },
      { name: 'doomed', preset: 'full_integration', per_hour: 1_000_000 },
    ]));
    if (provisioned.status !== 201) throw new Error(`provisioning answered ${provisioned.status} ${JSON.stringify(provisioned.body)}\n${diagnostics()}`);
    const accountId: string = provisioned.body.account_id;
    const keys = provisioned.body.api_keys as Record<string, { id: string; key: string }>;
    const subscription = await call(base, 'POST', '/v1/webhooks', keys.full!.key, { url: receiver!.url(WEBHOOK_PATH), events: '*' });
    if (subscription.status !== 201) throw new Error(`subscription answered ${subscription.status} ${JSON.stringify(subscription.body)}`);
    const subscriptionId: string = subscription.body.data.id;

    // 2. Quotas across nodes and shards: a small key per master (its account's counters hash to that master's
    // slots), each hit through HAProxy (both nodes in turn): exactly QUOTA admitted, never 2 x QUOTA.
    const masters = await cluster!.nodes().then((all) => all.filter((node) => node.role === 'master' && node.slots.length > 0));
    const masterOf = (slot: number) => masters.find((node) => node.slots.some(([first, last]) => slot >= first && slot <= last))?.port;
    const smallKeys = new Map<number, string>();
    for (let attempt = 0; smallKeys.size < masters.length && attempt < 30; attempt++) {
      const quotaAccount = await call(base, 'POST', '/admin/v1/accounts', adminToken, blueprint(`Quota ${runTag} ${attempt}`, [{ name: 'small', preset: 'full_integration', per_hour: QUOTA }]));
      if (quotaAccount.status !== 201) throw new Error(`provisioning a quota account answered ${quotaAccount.status} ${JSON.stringify(quotaAccount.body)}`);
      const port = masterOf(hashSlot(`{${PREFIX}:${quotaAccount.body.account_id}}`));
      if (port !== undefined && !smallKeys.has(port)) smallKeys.set(port, quotaAccount.body.api_keys.small.key);
    }
    const sessionsBefore = await haproxy!.serverSessions();
    const admitted: Record<number, number> = {};
    for (const [port, key] of smallKeys) {
      const statuses = await Promise.all(Array.from({ length: 2 * QUOTA }, () => call(base, 'GET', '/v1/me', key, undefined, { 'x-forwarded-for': freshAddress() }).then((answer) => answer.status)));
      admitted[port] = statuses.filter((status) => status === 200).length;
      const others = statuses.filter((status) => status !== 200 && status !== 429);
      check(admitted[port] === QUOTA && others.length === 0, `quota: key on master :${port}: ${admitted[port]} of ${2 * QUOTA} admitted through HAProxy (expected exactly ${QUOTA}; other statuses: ${JSON.stringify(others)})`);
    }
    const sessionsAfter = await haproxy!.serverSessions();
    const quotaSessions = Object.fromEntries(Object.entries(sessionsAfter).map(([name, total]) => [name, total - (sessionsBefore[name] ?? 0)]));
    check(smallKeys.size === masters.length, `quota: small keys on ${smallKeys.size} of ${masters.length} masters`);
    check(Object.values(quotaSessions).length === 2 && Object.values(quotaSessions).every((count) => count > 0), `quota: both nodes served the quota requests (HAProxy sessions ${JSON.stringify(quotaSessions)})`);
    figures.quota_admitted = admitted;

    // 3. Revocation: a key both nodes have just admitted (cached) is revoked through the operator API; each node,
    // polled directly, refuses it within REVOCATION_LIMIT_MS (four refusals in a row, so both api processes of the node).
    for (const node of nodes) {
      for (let index = 0; index < 4; index++) {
        const warm = await call(`http://127.0.0.1:${node.port}`, 'GET', '/v1/me', keys.doomed!.key, undefined, { 'x-forwarded-for': freshAddress() });
        if (warm.status !== 200) throw new Error(`the key to revoke answered ${warm.status} on node :${node.port}`);
      }
    }
    const revoked = await call(base, 'POST', `/admin/v1/accounts/${accountId}/api-keys/${keys.doomed!.id}/revoke`, adminToken);
    const revokedAt = Date.now();
    check(revoked.status === 200, `revocation: operator API answered ${revoked.status}`);
    const revocationMs = await Promise.all(
      nodes.map(async (node) => {
        let refusedSince: number | null = null;
        let inARow = 0;
        while (Date.now() - revokedAt < 5000) {
          const answer = await call(`http://127.0.0.1:${node.port}`, 'GET', '/v1/me', keys.doomed!.key, undefined, { 'x-forwarded-for': freshAddress() });
          if (answer.status === 401) {
            refusedSince ??= Date.now();
            if (++inARow >= 4) return refusedSince - revokedAt;
          } else {
            refusedSince = null;
            inARow = 0;
          }
          await pause(10);
        }
        return Number.POSITIVE_INFINITY;
      }),
    );
    revocationMs.forEach((ms, index) => check(ms <= REVOCATION_LIMIT_MS, `revocation: node ${index + 1} refuses the revoked key ${ms} ms after the operator's answer (limit ${REVOCATION_LIMIT_MS} ms)`));
    figures.revocation_ms = revocationMs;

    // 4. The load: captures, read-your-writes and the faults, together.
    await replica!.setApplyDelay(REPLICA_DELAY_MS);
    const leads: LeadSpec[] = Array.from({ length: LEADS }, (_, index) => ({
      index,
      email: `lead.${index}.${runTag}@topology.test`,
      idempotencyKey: `topology-${runTag}-${index}`,
      forwardedFor: freshAddress(),
      body: { email: `lead.${index}.${runTag}@topology.test`, first_name: 'Amélie', phone: `(514) 7${String(Math.floor(index / 10000)).padStart(2, '0')}-${String(index % 10000).padStart(4, '0')}`, sms_consent: true },
    }));
    const client = new CaptureClient({ baseUrl: base, apiKey: keys.capture!.key, deadlineMs: LEAD_DEADLINE_MS });
    const abort = new AbortController();
    setMaxListeners(4 * MAX_IN_FLIGHT, abort.signal); // each capture in flight listens to it
    const outcomes: CaptureOutcome[] = new Array(LEADS);
    let acknowledged = 0;
    const t0 = Date.now();
    const capturing = (async () => {
      let next = 0;
      await Promise.all(
        Array.from({ length: MAX_IN_FLIGHT }, async () => {
          while (next < leads.length && !abort.signal.aborted) {
            const lead = leads[next++]!;
            const outcome = await client.capture(lead, abort.signal);
            outcomes[lead.index] = outcome;
            if (outcome.acknowledged) acknowledged++;
          }
        }),
      );
    })();
    const capturesDeadline = setTimeout(() => abort.abort(), 240_000);
    const progress = setInterval(() => console.log(`[topology] t+${Math.round((Date.now() - t0) / 1000)} s: ${acknowledged} of ${LEADS} captures acknowledged`), 10_000);

    const ryw = { pairs: 0, misses: 0, writeRetries: 0, readRetries: 0, replicaBehind: 0, missed: [] as string[] };
    let capturesDone = false;
    const rywHealth: unknown[] = [];
    const readYourWrites = (async () => {
      while ((!capturesDone || ryw.pairs < RYW_MIN_PAIRS) && !abort.signal.aborted) {
        const email = `ryw.${ryw.pairs}.${runTag}@topology.test`;
        const idempotencyKey = `topology-ryw-${runTag}-${ryw.pairs}`;
        let created: Answer;
        for (let attempt = 0; ; attempt++) {
          created = await call(base, 'POST', '/v1/contacts', keys.full!.key, { email, first_name: 'Lecture' }, { 'idempotency-key': idempotencyKey, 'x-forwarded-for': freshAddress() });
          if (created.status === 201 || attempt >= 100) break;
          ryw.writeRetries++;
          await pause(100);
        }
        if (created.status !== 201) {
          ryw.missed.push(`write of ${email} never acknowledged (${created.status})`);
          break;
        }
        const id: string = created.body.data.id;
        let read: Answer;
        for (let attempt = 0; ; attempt++) {
          read = await call(base, 'GET', `/v1/contacts/${id}`, keys.full!.key, undefined, { 'x-forwarded-for': freshAddress() });
          // 404 is the miss; a 5xx or a cut connection (a fault under way) is retried, and counted
          if (read.status === 200 || read.status === 404 || attempt >= 100) break;
          ryw.readRetries++;
          await pause(100);
        }
        ryw.pairs++;
        if (read.status !== 200 || read.body?.data?.id !== id) {
          ryw.misses++;
          if (ryw.missed.length < 5) ryw.missed.push(`${id}: ${read.status}`);
        }
        // Would a read on the replica have missed it? (proves the delay bites)
        const onReplica = await runSql(replica!.url(DATABASE), 'SELECT 1 FROM contacts.contacts WHERE id = $1', [id]).catch(() => [{}]);
        if (onReplica.length === 0) ryw.replicaBehind++;
        if (ryw.pairs % 50 === 0) {
          // what the apps report of the replica while it is behind (docs/adr/0007 adds `read_replicas` to /health/ready)
          const health = await call(`http://127.0.0.1:${nodes[0]!.port}`, 'GET', '/health/ready', null);
          if (health.body?.read_replicas) rywHealth.push(health.body.read_replicas);
        }
        await pause(20);
      }
    })();

    const faultLog: string[] = [];
    let exitsBeforeKill: string[][] = [];
    const atAcks = async (count: number) => pollUntil(`${count} captures acknowledged`, () => acknowledged >= count || abort.signal.aborted, 180_000, 50);
    const injecting = (async () => {
      // Redis: a master fails over to its replica.
      await atAcks(Math.round(LEADS * 0.15));
      const failedMaster = masters[0]!.port;
      const failover = await cluster!.failover(failedMaster);
      figures.redis_failover_s = failover.tookMs / 1000;
      faultLog.push(`t+${seconds(Date.now() - t0)} Redis master :${failedMaster} failed over to :${failover.newMasterPort} in ${seconds(failover.tookMs)}`);

      // PgBouncer: stopped, both nodes not ready (postgres down), started again, both ready.
      await atAcks(Math.round(LEADS * 0.35));
      const stoppedAt = Date.now();
      await bouncer!.stop();
      const unready = await Promise.all(
        nodes.map(async (node) => {
          let last: Answer = { status: 0, body: null };
          const ms = await pollUntil(`node :${node.port} answers /health/ready 503 with PgBouncer stopped`, async () => {
            last = await call(`http://127.0.0.1:${node.port}`, 'GET', '/health/ready', null);
            return last.status === 503 && last.body?.checks?.postgres === 'down';
          }, 10_000, 50).catch(() => Number.POSITIVE_INFINITY);
          return { ms, last };
        }),
      );
      unready.forEach(({ ms, last }, index) =>
        check(Number.isFinite(ms), `readiness: node ${index + 1} answers /health/ready 503 (postgres down) ${ms} ms after PgBouncer stopped (last: ${last.status} ${JSON.stringify(last.body?.checks)})`),
      );
      await bouncer!.restart();
      const restartedAt = Date.now();
      const ready = await Promise.all(
        nodes.map((node) =>
          pollUntil(`node :${node.port} ready again`, async () => (await call(`http://127.0.0.1:${node.port}`, 'GET', '/health/ready', null)).status === 200, 30_000, 50).catch(() => Number.POSITIVE_INFINITY),
        ),
      );
      ready.forEach((ms, index) => check(Number.isFinite(ms), `readiness: node ${index + 1} answers /health/ready 200 again ${ms} ms after PgBouncer restarted`));
      const routedMs = await pollUntil('HAProxy routes to both nodes again', async () => Object.values(await haproxy!.serverStates()).every((state) => state === 'UP'), 30_000, 50).catch(() => Number.POSITIVE_INFINITY);
      figures.pgbouncer = { down_s: (restartedAt - stoppedAt) / 1000, unready_ms: unready.map((entry) => entry.ms), ready_again_ms: ready, haproxy_both_up_ms: routedMs };
      faultLog.push(`t+${seconds(stoppedAt - t0)} PgBouncer stopped for ${seconds(restartedAt - stoppedAt)}; /health/ready 503 after ${unready.map((entry) => entry.ms).join('/')} ms, 200 again ${ready.join('/')} ms after the restart, HAProxy both up after ${routedMs} ms`);

      // A node dies whole: SIGKILL of its supervisor's process group (api processes and worker).
      await atAcks(Math.round(LEADS * 0.6));
      const victim = nodes[1]!;
      exitsBeforeKill = nodes.map((node) => node.reportedExits().map((exit) => `${exit.label} ${exit.how}`));
      const killedAt = Date.now();
      process.kill(-victim.pid, 'SIGKILL');
      const groupGone = await pollUntil('every process of node 2 gone', () => {
        try {
          process.kill(-victim.pid, 0);
          return false;
        } catch {
          return true;
        }
      }, 10_000, 20).then(() => true, () => false);
      check(groupGone, `node kill: no process of node 2's group (supervisor pid ${victim.pid}) left after the SIGKILL`);
      // HAProxy's own report of the state change (`Server nodes/node2 is DOWN, reason: …`), timed as it arrives.
      await pollUntil('HAProxy marks the dead node down', () => haproxy!.stateChanges().some((change) => change.at >= killedAt && change.line.includes('nodes/node2 is DOWN')), 20_000, 20).catch(() => undefined);
      const markedDown = haproxy!.stateChanges().find((change) => change.at >= killedAt && change.line.includes('nodes/node2 is DOWN'));
      const downMs = markedDown ? markedDown.at - killedAt : Number.POSITIVE_INFINITY;
      check(Number.isFinite(downMs), `node kill: HAProxy marked node 2 down ${downMs} ms after the SIGKILL`);
      figures.node_kill_haproxy_down_s = downMs / 1000;
      faultLog.push(`t+${seconds(killedAt - t0)} node 2 (supervisor pid ${victim.pid}) SIGKILLed with its process group; HAProxy marked it down after ${seconds(downMs)}`);
    })().catch((error: unknown) => {
      failures.push(`injecting the faults failed: ${String(error)}`);
    });

    await capturing;
    capturesDone = true;
    clearTimeout(capturesDeadline);
    clearInterval(progress);
    const captureMs = Date.now() - t0;
    await injecting;
    await readYourWrites;
    faultLog.forEach((line) => console.log(`[topology] ${line}`));
    for (const change of haproxy!.stateChanges().filter((entry) => entry.at >= t0)) console.log(`[topology] t+${seconds(change.at - t0)} HAProxy: ${change.line.slice(0, 160)}`);

    // 5. Settle: every event of the account relayed and every delivery of the subscription accepted by the receiver.
    const settleStarted = Date.now();
    const state = async () => {
      const [events] = await runSql<{ total: number; relayed: number }>(primaryUrl, `SELECT count(*)::int AS total, count(relayed_at)::int AS relayed FROM platform.outbox WHERE account_id = $1`, [accountId]);
      const deliveries = await runSql<{ id: string; event_id: string; event: string }>(primaryUrl, `SELECT id, event_id, event FROM webhooks.deliveries WHERE account_id = $1 AND subscription_id = $2`, [accountId, subscriptionId]);
      const accepted = new Set(receiver!.at(WEBHOOK_PATH).filter((request) => request.answered === 200).map((request) => String(request.headers['x-service-delivery'])));
      const [leadEvents] = await runSql<{ n: number }>(primaryUrl, `SELECT count(*)::int AS n FROM platform.outbox WHERE account_id = $1 AND type = 'lead_created'`, [accountId]);
      return { events: events!.total, relayed: events!.relayed, leadEvents: leadEvents!.n, deliveries, accepted: deliveries.filter((delivery) => accepted.has(delivery.id)).length };
    };
    let settled = await state();
    let reported = Date.now();
    const acked = outcomes.filter((outcome) => outcome?.acknowledged).length;
    while (
      !(settled.relayed === settled.events && settled.leadEvents >= acked && settled.accepted === settled.deliveries.length && settled.deliveries.filter((delivery) => delivery.event === 'lead_created').length >= settled.leadEvents) &&
      Date.now() - settleStarted < SETTLE_MS
    ) {
      await pause(250);
      settled = await state();
      if (Date.now() - reported >= 10_000) {
        reported = Date.now();
        console.log(`[topology] settling ${seconds(Date.now() - settleStarted)}: ${settled.relayed}/${settled.events} relayed, ${settled.accepted}/${settled.deliveries.length} deliveries accepted`);
      }
    }
    const settleMs = Date.now() - settleStarted;
    await pause(1000); // late duplicates
    settled = await state();

    // 6. The checks.
    const givenUp = outcomes.filter((outcome) => !outcome?.acknowledged);
    check(givenUp.length === 0, `captures: ${acked} of ${LEADS} acknowledged${givenUp.length > 0 ? ` (given up: ${givenUp.slice(0, 3).map((outcome) => outcome?.gaveUp).join('; ')})` : ''}`);
    const stored = await runSql<{ email: string; n: number }>(primaryUrl, `SELECT lower(email) AS email, count(*)::int AS n FROM contacts.contacts WHERE account_id = $1 AND email LIKE 'lead.%' GROUP BY 1`, [accountId]);
    const storedByEmail = new Map(stored.map((row) => [row.email, row.n]));
    const ackedLeads = outcomes.filter((outcome) => outcome?.acknowledged).map((outcome) => outcome.lead);
    const missing = ackedLeads.filter((lead) => !storedByEmail.has(lead.email.toLowerCase()));
    const doubled = stored.filter((row) => row.n > 1);
    check(missing.length === 0 && doubled.length === 0, `stored once: ${ackedLeads.length - missing.length} of ${ackedLeads.length} acknowledged leads on the primary, ${missing.length} missing, ${doubled.length} stored twice or more`);

    const events = await runSql<{ id: string; type: string; email: string | null; relayed: boolean }>(
      primaryUrl,
      `SELECT id, type, lower(payload->>'email') AS email, relayed_at IS NOT NULL AS relayed FROM platform.outbox WHERE account_id = $1`,
      [accountId],
    );
    const leadEvents = events.filter((event) => event.type === 'lead_created');
    const leadEventsPerEmail = new Map<string, number>();
    for (const event of leadEvents) leadEventsPerEmail.set(event.email ?? '', (leadEventsPerEmail.get(event.email ?? '') ?? 0) + 1);
    const leadsWithoutOneEvent = ackedLeads.filter((lead) => leadEventsPerEmail.get(lead.email.toLowerCase()) !== 1);
    check(leadsWithoutOneEvent.length === 0, `events: every acknowledged lead has exactly one lead_created event (${leadsWithoutOneEvent.length} have not)`);
    const unrelayed = events.filter((event) => !event.relayed);
    check(unrelayed.length === 0, `relayed: ${events.length - unrelayed.length} of ${events.length} outbox events relayed`);

    const deliveries = settled.deliveries;
    const deliveryById = new Map(deliveries.map((delivery) => [delivery.id, delivery]));
    const deliveriesPerEvent = new Map<string, number>();
    for (const delivery of deliveries) deliveriesPerEvent.set(delivery.event_id, (deliveriesPerEvent.get(delivery.event_id) ?? 0) + 1);
    // Event types the subscription gets ("*" = every type the webhooks consumer fans out): each event of those types has exactly one delivery.
    const deliveredTypes = new Set(deliveries.map((delivery) => delivery.event));
    const eligible = events.filter((event) => deliveredTypes.has(event.type));
    const notOnce = eligible.filter((event) => deliveriesPerEvent.get(event.id) !== 1);
    check(deliveredTypes.has('lead_created') && notOnce.length === 0, `fan-out: ${eligible.length} events of the types ${[...deliveredTypes].sort().join(', ')}, each with exactly one delivery to the subscription (${notOnce.length} not)`);
    const received = receiver!.at(WEBHOOK_PATH);
    const requestsPerDelivery = new Map<string, number>();
    for (const request of received) {
      const id = String(request.headers['x-service-delivery']);
      requestsPerDelivery.set(id, (requestsPerDelivery.get(id) ?? 0) + 1);
    }
    const acceptedDeliveries = new Set(received.filter((request) => request.answered === 200).map((request) => String(request.headers['x-service-delivery'])));
    const unknown = [...requestsPerDelivery.keys()].filter((id) => !deliveryById.has(id));
    const eventsReceived = new Set([...acceptedDeliveries].map((id) => deliveryById.get(id)?.event_id).filter((id): id is string => id !== undefined));
    const leadEventsMissed = leadEvents.filter((event) => !eventsReceived.has(event.id));
    const duplicates = [...requestsPerDelivery.values()].reduce((sum, n) => sum + n - 1, 0);
    check(
      leadEventsMissed.length === 0 && eventsReceived.size === deliveries.length && unknown.length === 0,
      `delivered: ${eventsReceived.size} distinct event ids received for ${deliveries.length} deliveries (by X-Service-Delivery), ${leadEvents.length - leadEventsMissed.length} of ${leadEvents.length} lead_created, ${unknown.length} unknown delivery ids; ${duplicates} duplicate requests (receivers dedupe)`,
    );

    // No app process may die of a dependency's outage (the supervisor would restart it, but its requests in flight are lost and the node is unready meanwhile).
    const ownExits = [...exitsBeforeKill.flatMap((exits, index) => exits.map((exit) => `node ${index + 1}: ${exit}`)), ...nodes[0]!.reportedExits().slice(exitsBeforeKill[0]?.length ?? 0).map((exit) => `node 1: ${exit.label} ${exit.how}`)];
    check(ownExits.length === 0, `no api process or worker died on its own (before node 2's kill, and node 1 after it): ${ownExits.length === 0 ? 'none' : ownExits.join(', ')}`);
    if (ownExits.length > 0) {
      const traces = nodes.flatMap((node) => node.appLines.filter((line) => !line.startsWith('{') && /error|at |exit/i.test(line)).slice(0, 12));
      console.log(`[topology] what the apps printed besides their JSON logs:\n${traces.join('\n')}`);
    }

    const finalMasters = await cluster!.masterPorts();
    const spread: Record<number, number> = {};
    for (const port of finalMasters) spread[port] = (await cluster!.scan(port, `*${PREFIX}:*`)).length;
    check(finalMasters.length === 3 && Object.values(spread).every((count) => count > 0), `spread: keys of the prefix per master ${JSON.stringify(spread)}`);

    check(ryw.pairs >= RYW_MIN_PAIRS && ryw.misses === 0 && ryw.replicaBehind > 0, `read-your-writes: ${ryw.misses} misses in ${ryw.pairs} create-then-read pairs through HAProxy (replica ${REPLICA_DELAY_MS} ms behind; it lacked the row at read time in ${ryw.replicaBehind} pairs)${ryw.missed.length ? `: ${ryw.missed.join(', ')}` : ''}`);
    const replicaSessions = await replica!.appSessions(DATABASE);
    if (READ_REPLICAS_SUPPORTED) check(replicaSessions > 0, `read replica: ${replicaSessions} app sessions on the replica (DATABASE_READ_URLS honoured)`);
    else console.log(`[topology] note: the apps do not read DATABASE_READ_URLS yet (${replicaSessions} app sessions on the replica): read-your-writes held trivially, every read went to the primary`);

    // How the nodes' reads were routed (docs/adr/0007: target replica|primary, reason), from node 1's /metrics (its api processes summed).
    const metrics = await call(`http://127.0.0.1:${nodes[0]!.port}`, 'GET', '/metrics', null);
    const readsRouted = String(metrics.body ?? '')
      .split('\n')
      .filter((line) => line.startsWith('leadflow_db_reads_total{'))
      .map((line) => line.replace('leadflow_db_reads_total', ''));
    Object.assign(figures, {
      node1_reads_routed: readsRouted,
      own_exits: ownExits,
      captures: LEADS,
      acks: acked,
      retries: outcomes.reduce((sum, outcome) => sum + (outcome ? outcome.attempts - 1 : 0), 0),
      capture_s: captureMs / 1000,
      events: events.length,
      deliveries: deliveries.length,
      received_requests: received.length,
      duplicates,
      settle_s: settleMs / 1000,
      replica_in_health_ready: rywHealth.at(-1) ?? null,
      ryw: { pairs: ryw.pairs, misses: ryw.misses, replica_behind: ryw.replicaBehind, write_retries: ryw.writeRetries, read_retries: ryw.readRetries, replica_app_sessions: replicaSessions, read_replicas_supported: READ_REPLICAS_SUPPORTED },
      spread_per_master: spread,
      total_s: (Date.now() - startedAt) / 1000,
    });
    console.log(`[topology] figures ${JSON.stringify(figures)}`);
    if (failures.length > 0) throw new Error(`${failures.length} check(s) failed:\n- ${failures.join('\n- ')}\n${diagnostics()}`);
  }, 420_000);
});
