import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { Queue } from 'bullmq';
import { Pool } from 'pg';
import { generateCertificate, HttpsReceiver, signatureMatches, TestCertificate } from '../support/webhooks-fixtures';
import { CaptureClient, CaptureOutcome } from './support/capture-client';
import { buildFaultPlan, FAULT_KINDS, faultSeedsFromEnv, FaultSpec, LeadSpec } from './support/fault-plan';
import { PrivatePostgres } from './support/private-postgres';
import { PrivateRedis } from './support/private-redis';
import { SupervisedService } from './support/supervised-service';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows and bodies are read member by member */

/**
 * Fault suite (issue 12, Deliver 2, third campaign). The whole service as `npm start` runs it (migrations,
 * 2 api processes and a worker under the supervisor) on a PostgreSQL cluster and a Redis server of the
 * test's OWN (initdb + pg_ctl, redis-server, on free ports; the machine's shared servers are never
 * touched). An account and a `lead_created` webhook subscription to a local HTTPS receiver are made through
 * the operator and public APIs; then 300 leads are captured, each a new person with its own
 * Idempotency-Key, retried with the same key until acknowledged, while five overlapping faults are
 * injected within about a minute in a seeded order, each right after a burst of leads: Redis is SIGKILLed
 * once relayed outbox batches are pending, unconsumed (the webhooks consumer's queue is paused just before:
 * the consumers otherwise take a batch within a millisecond) and restarted EMPTY 9–12 s later, PostgreSQL
 * is restarted (`pg_ctl restart -m fast|immediate`) with captures in flight, the worker is SIGKILLed while
 * it holds delivery leases (the receiver answers 8 s late just before, so attempts are in flight; the
 * leases are read from `webhooks.deliveries.locked_by` before the kill), one api process is SIGKILLed (the
 * supervisor restarts both), and the receiver answers 500 for 20 s. Then, all evaluated and the failing
 * ones reported together:
 *
 * - every lead was acknowledged (2xx) and exists exactly once in `contacts.contacts` (by email);
 * - no Idempotency-Key is left `processing` in `platform.idempotency_keys`;
 * - every lead has exactly one `lead_created` event in `platform.outbox`;
 * - every `lead_created` event reaches the receiver exactly once by event id (one delivery, deduplicated
 *   on `X-Service-Delivery` as receivers are told to) within the settle window, each request correctly
 *   signed and carrying that event's capture;
 * - recovery in seconds (docs/adr/0004), with the DEFAULT lease, stalled-job and reconciler settings, each
 *   measured and failing when there was nothing to measure: the replacement worker reports ready (the
 *   supervisor's first `worker (pid N) ready after …` line after the kill); the first delivery the receiver
 *   accepts comes at most 5 s after it (moved past any other outage still blocking deliveries then:
 *   receiver failing, Redis down, PostgreSQL restarting); every attempt the killed worker held a lease on is
 *   sent again at most 5 s after it (moved past Redis and PostgreSQL outages only); at least one
 *   lead_created was lost with Redis (relayed before the kill, not recorded by every consumer when it came
 *   back, and not finished later by a job still running) and each is re-enqueued by the reconciler at most
 *   60 s after Redis's restart.
 *
 * On failure the apps' warnings and errors (their JSON log lines, counted by message) are printed with the
 * supervisor's lines; each seed prints a `[faults] FIGURES` line (recovery times, counts).
 *
 * Seeded: each seed of `FAULT_SEEDS` (default three, see fault-plan.ts; or `FAULT_SEED` alone) runs on a
 * service of its own and fixes the leads and the fault order and timing; the seed, the counts and the
 * recovery times are printed. Shortened by configuration: webhook retry base 200 ms, sweeps for lost
 * delivery jobs every second, an Idempotency-Key lease of 5 s, relay polling every 100 ms. NOT shortened
 * (the recovery checks are about them): `WEBHOOK_LEASE_MS`, the BullMQ stalled-job settings, the worker
 * heartbeat, `OUTBOX_RECONCILE_INTERVAL_MS` and `OUTBOX_RECONCILE_GRACE_MS`. `FAULT_LEADS` (default 300);
 * `FAULT_SETTLE_MS` (default 90000: how long after the captures and faults ended every event has to arrive).
 */

const LEADS = Number(process.env.FAULT_LEADS ?? 300);
/** Captures start spread over this window; the faults fall inside it (ms). */
const CAPTURE_WINDOW_MS = 40_000;
/** Captures in flight at most (a lead waiting to retry keeps its slot). */
const MAX_IN_FLIGHT = 32;
/** A lead not acknowledged this long after its first request is given up (counted as lost). */
const LEAD_DEADLINE_MS = 90_000;
/** Captures still retrying this long after the first one are given up, so a stalled service still gets its report (ms). */
const CAPTURES_DEADLINE_MS = 120_000;
/** The retry window: how long after the captures and faults ended every lead_created has to reach the receiver (ms). */
const SETTLE_MS = Number(process.env.FAULT_SETTLE_MS ?? 90_000);
/** The webhooks consumer's queue (paused right before Redis's kill so that relayed batches are pending in it). */
const WEBHOOKS_QUEUE = 'integration-events.webhooks';
/** Redis is killed once this many jobs are pending in its queues, some of them outbox batches (or 8 s after the burst). */
const JOBS_AT_KILL = 20;
/** Deliveries must resume this soon after the worker's restart (ms). */
const WORKER_RECOVERY_LIMIT_MS = 5000;
/** An outbox event lost with Redis must be re-enqueued this soon after Redis's restart (ms). */
const REENQUEUE_LIMIT_MS = 60_000;
/** Before the worker's kill the receiver answers this late, so that attempts are in flight and their leases held (ms; under the 10 s webhook timeout). */
const SLOW_ANSWER_MS = 8000;
/** Longest wait for the worker to hold a delivery lease before its kill (ms). */
const LEASE_WAIT_MS = 10_000;
/** The worker is killed once it holds this many delivery leases (or 2 s after the first). */
const LEASES_AT_KILL = 5;
/** Pause after settling, for late duplicate deliveries to show up (ms). */
const LATE_DUPLICATE_WINDOW_MS = 3000;
const API_PROCESSES = 2;
const WEBHOOK_PATH = '/faults';

/** Settings of the service under test: the retry schedule, sweeps and lease shortened so that the run fits in minutes. */
const SHORTENED = {
  OUTBOX_RELAY_INTERVAL_MS: '100',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  WEBHOOK_SWEEP_GRACE_MS: '2000',
  IDEMPOTENCY_LEASE_MS: '5000',
  STOP_TIMEOUT_MS: '10000',
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A fault as it happened: when it started (ms after the captures started) and how long it took. */
interface InjectedFault {
  kind: FaultSpec['kind'];
  atMs: number;
  tookMs: number;
  detail: string;
  /** Wall-clock start and end (ms since the epoch), to place events relative to the fault. */
  from: number;
  to: number;
}

describe.each(faultSeedsFromEnv())('fault suite (seed %i): captures with idempotency keys while Redis restarts empty, PostgreSQL restarts, the worker and an api are killed and the receiver fails', (seed) => {
  const plan = buildFaultPlan(seed, LEADS, CAPTURE_WINDOW_MS);
  const adminToken = `faults-${randomBytes(12).toString('hex')}`;
  let postgres: PrivatePostgres | undefined;
  let redis: PrivateRedis | undefined;
  let service: SupervisedService | undefined;
  let certificate: TestCertificate | undefined;
  let receiver: HttpsReceiver | undefined;
  let db: Pool | undefined;
  let databaseUrl = '';
  /** When this seed's beforeAll began (describe.each runs every describe body at collection time). */
  let startedAt = 0;
  let bootMs = 0;
  /** Aborts the captures (a fault that could not be injected, or the end of the test). */
  const abort = new AbortController();

  const diagnostics = () => [service?.diagnostics() ?? '', '--- redis', redis?.logTail() ?? '', '--- postgres', postgres?.logTail(15) ?? ''].join('\n');

  beforeAll(async () => {
    startedAt = Date.now();
    console.log(`[faults] FAULT_SEED=${seed} leads=${LEADS} faults=${plan.faults.map((fault) => fault.kind).join(' → ')} (replay: FAULT_SEED=${seed} npx jest apps/api/test/faults)`);
    const [postgresPort, redisPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    certificate = generateCertificate();
    receiver = await HttpsReceiver.start(certificate);
    postgres = await PrivatePostgres.start(postgresPort);
    redis = await PrivateRedis.start(redisPort);
    databaseUrl = postgres.url('leadflow_faults');
    service = new SupervisedService(apiPort, {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'faults',
      ADMIN_TOKEN: adminToken,
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
      API_PROCESSES: String(API_PROCESSES),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // Each lead comes from its own address (X-Forwarded-For from this loopback client): the per-IP limit is 100 captures a minute.
      TRUST_PROXY: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CA_FILE: certificate.certFile,
      SMTP_URL: undefined,
      ...SHORTENED,
    });
    // The worker is up once its BullMQ workers are connected (they name their connections `faults:bull:<queue>`).
    const privateRedis = redis;
    await service.waitUntilReady(100_000, async () => (await privateRedis.clientNames()).some((name) => name.startsWith('faults:bull:') && !name.endsWith(':qe')));
    db = new Pool({ connectionString: databaseUrl, max: 3, connectionTimeoutMillis: 5000, query_timeout: 15_000 });
    db.on('error', () => undefined); // idle clients cut by the PostgreSQL restart
    bootMs = Date.now() - startedAt;
  }, 150_000);

  afterAll(async () => {
    abort.abort(); // captures still retrying (a test that failed or timed out) stop at once
    await service?.stop().catch(() => undefined);
    await db?.end().catch(() => undefined);
    await receiver?.stop().catch(() => undefined);
    await redis?.dispose().catch(() => undefined);
    postgres?.dispose();
    certificate?.remove();
  }, 60_000);

  /** JSON request to the service; the status and the parsed body. */
  async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`http://127.0.0.1:${service!.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    return { status: response.status, body: text.length > 0 ? JSON.parse(text) : null };
  }

  async function query<T = any>(text: string, values: unknown[]): Promise<T[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await db!.query(text, values)).rows as T[];
      } catch (error) {
        if (attempt >= 20) throw error;
        await pause(250); // a connection cut by the restart: the pool opens a new one
      }
    }
  }

  /**
   * What the service is doing while captures hang: `/health` and `GET /v1/me` (status and time), the private
   * PostgreSQL's sessions (state, wait, query) and the apps' last warnings and errors.
   */
  async function stallReport(): Promise<string> {
    // On a fresh connection (not the captures' pool), so a stuck client cannot be mistaken for a stuck service.
    const timed = (path: string, token = '') =>
      new Promise<string>((resolve) => {
        const started = Date.now();
        const request = get({ host: '127.0.0.1', port: service!.port, path, agent: false, timeout: 10_000, headers: token ? { authorization: `Bearer ${token}` } : {} }, (response) => {
          response.resume();
          response.on('end', () => resolve(`${path}: ${response.statusCode} in ${Date.now() - started} ms`));
        });
        request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
        request.on('error', (error) => resolve(`${path}: ${error.message} after ${Date.now() - started} ms`));
      });
    const sessions = await query<{ n: number; state: string; wait: string; age_s: number; query: string }>(
      `SELECT count(*)::int AS n, coalesce(state, '?') AS state, coalesce(wait_event_type || ':' || wait_event, '') AS wait,
              max(extract(epoch FROM now() - coalesce(xact_start, query_start)))::int AS age_s, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 100) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
        GROUP BY 2, 3, 5 ORDER BY 1 DESC LIMIT 15`,
      [],
    ).catch((error: unknown) => [{ n: 0, state: `query failed: ${String(error)}`, wait: '', age_s: 0, query: '' }]);
    return [
      await timed('/health'),
      await timed('/v1/me', stallToken),
      'PostgreSQL sessions (count, state, wait, oldest transaction or query in s, query):',
      ...sessions.map((row) => `  ${row.n} ${row.state} ${row.wait} ${row.age_s} s: ${row.query}`),
      service!.diagnostics(15),
    ].join('\n');
  }
  let stallToken = '';

  /** Runs the plan's faults one after the other, each `afterMs` after the previous one ended. */
  async function injectFaults(t0: number): Promise<InjectedFault[]> {
    const injected: InjectedFault[] = [];
    for (const fault of plan.faults) {
      await pause(fault.afterMs);
      // Every fault hits the service under load: a burst of leads first, on top of the paced ones.
      releaseBurst(fault.burst);
      let atMs: number;
      let detail: string;
      if (fault.kind === 'redis') {
        // Losing Redis's data only matters for what it holds: killed as soon as jobs are pending in the
        // queues (waiting, active, delayed), at most 8 s after the burst.
        // Outbox batches that no worker holds yet are certainly lost with it. The consumers keep up with the relay
        // (a batch waits a millisecond), so the webhooks consumer's queue is paused first (BullMQ's pause, a flag in
        // Redis, gone with it): its batches pile up, relayed and not consumed, and the kill waits for JOBS_AT_KILL
        // jobs pending, outbox batches among them (at most 8 s).
        const webhooksQueue = new Queue(WEBHOOKS_QUEUE, { connection: { host: '127.0.0.1', port: redis!.port, maxRetriesPerRequest: 1 }, prefix: 'faults:bull' });
        webhooksQueue.on('error', () => undefined);
        await webhooksQueue.pause();
        await webhooksQueue.close();
        let pending: Record<string, number> = {};
        let unheld: Record<string, number> = {};
        const total = () => Object.values(pending).reduce((sum, n) => sum + n, 0);
        const batches = () => unheld[WEBHOOKS_QUEUE] ?? 0;
        for (const until = Date.now() + 8000; (total() < JOBS_AT_KILL || batches() === 0) && Date.now() < until; ) {
          await pause(25);
          [pending, unheld] = await Promise.all([redis!.pendingJobs('faults:bull'), redis!.pendingJobs('faults:bull', ['wait', 'paused', 'prioritized', 'delayed'])]);
        }
        jobsLostWithRedis = pending;
        atMs = Date.now() - t0;
        await redis!.kill();
        await pause(fault.downMs);
        // What each lead_created relayed before the kill had recorded when Redis came back (its jobs, if any, are gone).
        recordedAtRedisRestart = await query<{ id: string; consumers: string[] }>(
          `SELECT o.id, coalesce(array_agg(i.consumer) FILTER (WHERE i.consumer IS NOT NULL), '{}') AS consumers
             FROM platform.outbox o LEFT JOIN platform.event_inbox i ON i.event_id = o.id
            WHERE o.type = 'lead_created' AND o.relayed_at < to_timestamp($1 / 1000.0) GROUP BY o.id`,
          [t0 + atMs],
        );
        await redis!.restart();
        redisRestartedAt = Date.now();
        detail = `burst of ${fault.burst} leads, SIGKILL with ${total()} jobs pending (${JSON.stringify(pending)}; ${batches()} outbox batch(es) waiting in the paused ${WEBHOOKS_QUEUE}), down ${fault.downMs} ms, restarted empty (${await redis!.keyCount().catch(() => '?')} keys right after start)`;
      } else if (fault.kind === 'postgres') {
        await pause(fault.delayMs);
        atMs = Date.now() - t0;
        await postgres!.restart(fault.mode);
        detail = `burst of ${fault.burst} leads, ${fault.delayMs} ms later pg_ctl restart -m ${fault.mode}`;
      } else if (fault.kind === 'receiver') {
        atMs = Date.now() - t0;
        receiver!.failFor(WEBHOOK_PATH, fault.downMs, 500);
        detail = `burst of ${fault.burst} leads, the receiver answers 500 for ${fault.downMs} ms (not waited for)`;
      } else if (fault.kind === 'api') {
        await pause(fault.delayMs);
        atMs = Date.now() - t0;
        const { killed, replacement } = await service!.killApi();
        detail = `burst of ${fault.burst} leads, ${fault.delayMs} ms later SIGKILL api pid ${killed}; supervisor started pid ${replacement}`;
      } else {
        await pause(fault.delayMs);
        // Attempts in flight at the kill: the receiver answers late until the worker holds delivery leases.
        const target = service!.currentWorkerPid();
        receiver!.slowFor(WEBHOOK_PATH, LEASE_WAIT_MS + SLOW_ANSWER_MS, SLOW_ANSWER_MS);
        const slowFrom = Date.now();
        // Until LEASES_AT_KILL attempts are in flight, or 2 s after the first (at most LEASE_WAIT_MS).
        let leased: string[] = [];
        let firstLeaseAt = Infinity;
        for (const until = Date.now() + LEASE_WAIT_MS; target !== undefined && Date.now() < Math.min(until, firstLeaseAt + 2000); ) {
          leased = await leasedBy(target);
          if (leased.length > 0) firstLeaseAt = Math.min(firstLeaseAt, Date.now());
          if (leased.length >= LEASES_AT_KILL) break;
          await pause(50);
        }
        const held = receiver!.at(WEBHOOK_PATH).filter((request) => request.receivedAt >= slowFrom).length;
        const anyLease = await query<{ n: number }>(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE locked_until > now()`, []).catch(() => [{ n: -1 }]);
        atMs = Date.now() - t0;
        const { killed, replacement } = await service!.killWorker();
        receiver!.endSlow(WEBHOOK_PATH);
        workerKill = { killed, replacement, inFlight: killed === target ? leased : [], killedAt: t0 + atMs };
        detail = `burst of ${fault.burst} leads, ${fault.delayMs} ms later the receiver answers ${SLOW_ANSWER_MS} ms late (${held} request(s) held, ${anyLease[0].n} lease(s) by any holder); SIGKILL worker pid ${killed} holding ${workerKill.inFlight.length} delivery lease(s) (webhooks.deliveries.locked_by); supervisor started pid ${replacement}`;
      }
      const to = fault.kind === 'receiver' ? t0 + atMs + fault.downMs : Date.now();
      injected.push({ kind: fault.kind, atMs, tookMs: to - t0 - atMs, detail, from: t0 + atMs, to });
      console.log(`[faults] t+${(atMs / 1000).toFixed(1)} s ${fault.kind}: ${detail}`);
    }
    return injected;
  }

  /** The last leads of the plan are kept for the bursts; `releaseBurst(n)` lets the next n of them go at once. */
  const burstTotal = plan.faults.reduce((sum, fault) => sum + fault.burst, 0);
  let burstReleased = 0;
  const burstWaiters: (() => void)[] = [];
  const releaseBurst = (count: number) => {
    burstReleased += count;
    for (const wake of burstWaiters.splice(0)) wake();
  };
  let jobsLostWithRedis: Record<string, number> = {};
  let redisRestartedAt = 0;
  let workerKill: { killed: number; replacement: number; inFlight: string[]; killedAt: number } | null = null;
  /** Per lead_created relayed before Redis's kill: the consumers that had recorded it when Redis restarted. */
  let recordedAtRedisRestart: { id: string; consumers: string[] }[] = [];

  /** Deliveries whose lease names the worker running as `pid` (its `platform.workers` row). */
  async function leasedBy(pid: number): Promise<string[]> {
    const rows = await query<{ id: string }>(
      `SELECT d.id FROM webhooks.deliveries d JOIN platform.workers w ON w.id = d.locked_by WHERE w.pid = $1 AND d.locked_until > now()`,
      [pid],
    ).catch(() => []);
    return rows.map((row) => row.id);
  }

  /**
   * Every lead captured through the client, at most MAX_IN_FLIGHT at once: the paced leads (all but the
   * burst reserve) spread evenly over the capture window, the reserve as the faults release it.
   */
  async function captureAll(client: CaptureClient, t0: number, signal: AbortSignal): Promise<CaptureOutcome[]> {
    const outcomes: CaptureOutcome[] = new Array(plan.leads.length);
    const paced = plan.leads.slice(0, plan.leads.length - burstTotal);
    const reserve = plan.leads.slice(plan.leads.length - burstTotal);
    let inFlight = 0;
    let done = 0;
    // Every 10 s a progress line; when no lead has finished for 25 s with some in flight, what the service is doing.
    let lastDone = 0;
    let lastProgressAt = Date.now();
    let stallsReported = 0;
    const progress = setInterval(() => {
      console.log(`[faults] t+${Math.round((Date.now() - t0) / 1000)} s: ${done} leads acknowledged or given up, ${inFlight} in flight`);
      if (done !== lastDone) {
        lastDone = done;
        lastProgressAt = Date.now();
      } else if (inFlight > 0 && Date.now() - lastProgressAt >= 25_000 && stallsReported < 3) {
        stallsReported++;
        lastProgressAt = Date.now();
        void stallReport().then((report) => console.log(`[faults] no capture finished for 25 s with ${inFlight} in flight:\n${report}`));
      }
    }, 10_000);
    const slotWaiters: (() => void)[] = [];
    const running: Promise<void>[] = [];
    const wakeAll = () => {
      for (const wake of [...slotWaiters.splice(0), ...burstWaiters.splice(0)]) wake();
    };
    signal.addEventListener('abort', wakeAll, { once: true });
    const launch = async (lead: LeadSpec) => {
      while (inFlight >= MAX_IN_FLIGHT && !signal.aborted) await new Promise<void>((resolve) => slotWaiters.push(resolve));
      inFlight++;
      running.push(
        client.capture(lead, signal).then((outcome) => {
          outcomes[lead.index] = outcome;
          done++;
          inFlight--;
          slotWaiters.shift()?.();
        }),
      );
    };
    const pacedLoop = async () => {
      for (const [position, lead] of paced.entries()) {
        const due = t0 + (position * plan.captureWindowMs) / paced.length;
        if (due > Date.now()) await pause(due - Date.now());
        if (signal.aborted) return;
        await launch(lead);
      }
    };
    const burstLoop = async () => {
      for (const [position, lead] of reserve.entries()) {
        while (position >= burstReleased && !signal.aborted) await new Promise<void>((resolve) => burstWaiters.push(resolve));
        if (signal.aborted) return;
        await launch(lead);
      }
    };
    await Promise.all([pacedLoop(), burstLoop()]);
    await Promise.all(running);
    clearInterval(progress);
    signal.removeEventListener('abort', wakeAll);
    return outcomes;
  }

  it(`acknowledges every lead once, strands no key and delivers every lead_created exactly once (${LEADS} captures, seeded faults)`, async () => {
    // 1. The account (operator API) and the webhook subscription (public API).
    const provisioned = await call('POST', '/admin/v1/accounts', adminToken, {
      name: `Toitures Bergeron – faults ${seed}`,
      api_terms_accepted: true,
      timezone: 'America/Montreal',
      systems: [{ name: 'Main', is_main: true }],
      pipelines: [{ name: 'Ventes', slug: 'ventes', is_default: true, stages: [{ name: 'Nouveau', slug: 'nouveau', is_default: true }, { name: 'Gagné', slug: 'gagne', is_won: true }] }],
      api_keys: [
        { name: 'capture', preset: 'lead_capture', per_hour: 1_000_000 },
        { name: 'full', preset: 'full_integration', per_hour: 1_000_000 },
      ],
    });
    expect(provisioned.status).toBe(201);
    const accountId: string = provisioned.body.account_id;
    const subscription = await call('POST', '/v1/webhooks', provisioned.body.api_keys.full.key, { url: receiver!.url(WEBHOOK_PATH), events: ['lead_created'] });
    expect(subscription.status).toBe(201);
    const secret: string = subscription.body.data.secret;
    stallToken = provisioned.body.api_keys.full.key;

    // 2. The captures, and the faults at the same time.
    const client = new CaptureClient({ baseUrl: `http://127.0.0.1:${service!.port}`, apiKey: provisioned.body.api_keys.capture.key, deadlineMs: LEAD_DEADLINE_MS });
    const t0 = Date.now();
    // A fault that cannot be injected fails the test at once: the captures still running are aborted first.
    const capturing = captureAll(client, t0, abort.signal);
    const capturesDeadline = setTimeout(() => {
      console.log(`[faults] captures still retrying ${CAPTURES_DEADLINE_MS} ms after the first one: given up`);
      abort.abort();
    }, CAPTURES_DEADLINE_MS);
    const injected = await injectFaults(t0).catch(async (error: unknown) => {
      abort.abort();
      await capturing;
      throw new Error(`injecting the faults failed (seed ${seed}): ${String(error)}\n${diagnostics()}`);
    });
    const outcomes = await capturing;
    clearTimeout(capturesDeadline);
    const captureMs = Date.now() - t0;

    // 3. The retry window: wait until every lead_created event of the account reached the receiver (or the window ends).
    const deliveryOf = new Map<string, { event_id: string; status: string; attempt: number }>();
    const badSignatures: string[] = [];
    let checked = 0;
    const verifyReceived = () => {
      // Signatures are checked as requests arrive (the signed timestamp must be within 5 minutes).
      const received = receiver!.at(WEBHOOK_PATH);
      for (; checked < received.length; checked++) {
        const request = received[checked];
        if (!signatureMatches(request.headers['x-service-signature'], request.rawBody, secret)) badSignatures.push(String(request.headers['x-service-delivery']));
      }
      return received;
    };
    const progress = async () => {
      const events = await query<{ id: string }>(`SELECT id FROM platform.outbox WHERE account_id = $1 AND type = 'lead_created'`, [accountId]);
      const deliveries = await query<{ id: string; event_id: string; status: string; attempt: number }>(
        `SELECT id, event_id, status, attempt FROM webhooks.deliveries WHERE account_id = $1`,
        [accountId],
      );
      for (const row of deliveries) deliveryOf.set(row.id, row);
      // Delivered means accepted: a request the receiver answered 500 (its failing window) does not count.
      const receivedEvents = new Set(
        verifyReceived()
          .filter((request) => request.answered === 200)
          .map((request) => deliveryOf.get(String(request.headers['x-service-delivery']))?.event_id),
      );
      return { events: events.length, delivered: events.filter((event) => receivedEvents.has(event.id)).length };
    };
    const settleStarted = Date.now();
    let last = await progress();
    let reported = settleStarted;
    while (!(last.events >= LEADS && last.delivered === last.events) && Date.now() - settleStarted < SETTLE_MS) {
      await pause(500);
      last = await progress();
      if (Date.now() - reported >= 10_000) {
        reported = Date.now();
        console.log(`[faults] settling, ${Math.round((reported - settleStarted) / 1000)} s: ${last.delivered} of ${last.events} lead_created received`);
      }
    }
    const settleMs = Date.now() - settleStarted;
    await pause(LATE_DUPLICATE_WINDOW_MS);
    await progress();

    // 4. What is in the database and what the receiver got.
    const acknowledged = outcomes.filter((outcome) => outcome.acknowledged !== null);
    const givenUp = outcomes.filter((outcome) => outcome.acknowledged === null);
    const contacts = await query<{ email: string; n: number }>(
      `SELECT lower(email) AS email, count(*)::int AS n FROM contacts.contacts WHERE account_id = $1 GROUP BY 1`,
      [accountId],
    );
    const contactsByEmail = new Map(contacts.map((row) => [row.email, row.n]));
    const stranded = await query<{ key: string; lease_expires_at: Date }>(
      `SELECT key, lease_expires_at FROM platform.idempotency_keys WHERE account_id = $1 AND state = 'processing' ORDER BY key`,
      [accountId],
    );
    const leadEvents = await query<{ id: string; email: string; capture_id: string; relayed: boolean; relay_attempts: number; occurred_ms: number }>(
      `SELECT id, lower(payload->>'email') AS email, payload->>'capture_id' AS capture_id, relayed_at IS NOT NULL AS relayed, relay_attempts,
              (extract(epoch FROM occurred_at) * 1000)::float8 AS occurred_ms
         FROM platform.outbox WHERE account_id = $1 AND type = 'lead_created'`,
      [accountId],
    );
    // Events the outbox reconciler put back in a queue (null on a schema without it).
    const reconciled = await db!
      .query(`SELECT count(*)::int AS n FROM platform.outbox WHERE account_id = $1 AND type = 'lead_created' AND reconcile_attempts > 0`, [accountId])
      .then((result) => result.rows[0].n as number)
      .catch(() => null);
    const eventsPerEmail = new Map<string, number>();
    for (const event of leadEvents) eventsPerEmail.set(event.email, (eventsPerEmail.get(event.email) ?? 0) + 1);

    const received = verifyReceived();
    const requestsPerDelivery = new Map<string, number>();
    for (const request of received) {
      const id = String(request.headers['x-service-delivery']);
      requestsPerDelivery.set(id, (requestsPerDelivery.get(id) ?? 0) + 1);
    }
    const deliveriesPerEvent = new Map<string, Set<string>>();
    const unknownDeliveries: string[] = [];
    const wrongPayloads: string[] = [];
    const eventById = new Map(leadEvents.map((event) => [event.id, event]));
    for (const request of received) {
      const deliveryId = String(request.headers['x-service-delivery']);
      const delivery = deliveryOf.get(deliveryId);
      const event = delivery ? eventById.get(delivery.event_id) : undefined;
      if (!delivery || !event) {
        unknownDeliveries.push(deliveryId);
        continue;
      }
      if (request.headers['x-service-event'] !== 'lead_created' || request.body?.id !== deliveryId || request.body?.data?.capture_id !== event.capture_id) {
        wrongPayloads.push(deliveryId);
      }
      deliveriesPerEvent.set(event.id, (deliveriesPerEvent.get(event.id) ?? new Set()).add(deliveryId));
    }
    const accepted = new Set(received.filter((request) => request.answered === 200).map((request) => deliveryOf.get(String(request.headers['x-service-delivery']))?.event_id));
    const neverDelivered = leadEvents.filter((event) => !accepted.has(event.id));

    // Recovery after the worker's kill: from its replacement's ready line (the first worker to report ready
    // after the kill), pushed past any other outage blocking deliveries then, to the first accepted delivery.
    const workerSpawnedAt = workerKill ? (service!.startedAt(workerKill.replacement) ?? 0) : 0;
    const replacementReady = workerKill ? service!.readyAfter('worker', workerKill.killedAt) : undefined;
    const workerRestartedAt = replacementReady?.at ?? 0;
    const outages = injected.filter((fault) => fault.kind === 'receiver' || fault.kind === 'redis' || fault.kind === 'postgres');
    /** `from` moved past every outage of `kinds` that starts within the limit of it and ends after it. */
    const pastOutages = (from: number, kinds: readonly FaultSpec['kind'][]) => {
      let at = from;
      for (let moved = true; moved; ) {
        moved = false;
        for (const outage of outages.filter((fault) => kinds.includes(fault.kind))) {
          if (outage.from <= at + WORKER_RECOVERY_LIMIT_MS && outage.to > at) {
            at = outage.to;
            moved = true;
          }
        }
      }
      return at;
    };
    const deliverableFrom = pastOutages(workerRestartedAt, ['receiver', 'redis', 'postgres']);
    // The dead worker's leased attempts are sent again once the replacement took them over; a failing receiver does not stop that.
    const reattemptFrom = pastOutages(workerRestartedAt, ['redis', 'postgres']);
    const acceptedAfter = (from: number) => received.find((request) => request.answered === 200 && request.receivedAt >= from)?.receivedAt;
    const firstAfterRestart = replacementReady ? acceptedAfter(workerRestartedAt) : undefined;
    const firstAfterDeliverable = replacementReady ? acceptedAfter(deliverableFrom) : undefined;
    const firstAttemptAfterRestart = replacementReady ? received.find((request) => request.receivedAt >= reattemptFrom)?.receivedAt : undefined;
    // A leased attempt whose request the receiver had already accepted before the kill was over, not in flight.
    const answeredBeforeKill = (deliveryId: string) =>
      received.some((request) => request.answered === 200 && request.receivedAt <= workerKill!.killedAt && String(request.headers['x-service-delivery']) === deliveryId);
    const takeover = (workerKill?.inFlight ?? []).filter((deliveryId) => !answeredBeforeKill(deliveryId)).map((deliveryId) => {
      const again = received.find((request) => request.receivedAt > workerKill!.killedAt && String(request.headers['x-service-delivery']) === deliveryId);
      return { deliveryId, ms: again === undefined ? null : again.receivedAt - reattemptFrom, afterKillMs: again === undefined ? null : again.receivedAt - workerKill!.killedAt };
    });
    const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : Math.round(ms / 100) / 10);
    const workerRecovery = {
      worker_spawned_at_s: seconds(workerSpawnedAt - t0),
      worker_ready_at_s: replacementReady ? seconds(workerRestartedAt - t0) : null,
      ready_pid: replacementReady?.pid ?? null,
      deliverable_from_s: replacementReady ? seconds(deliverableFrom - t0) : null,
      first_accepted_delivery_after_ready_s: seconds(firstAfterRestart === undefined ? null : firstAfterRestart - workerRestartedAt),
      first_accepted_delivery_after_deliverable_s: seconds(firstAfterDeliverable === undefined ? null : firstAfterDeliverable - deliverableFrom),
      first_delivery_request_after_ready_s: seconds(firstAttemptAfterRestart === undefined ? null : firstAttemptAfterRestart - reattemptFrom),
      dead_worker_leases: workerKill?.inFlight.length ?? 0,
      dead_worker_leases_in_flight: takeover.length,
      dead_worker_leases_sent_again_after_ready_s: takeover.map((entry) => seconds(entry.ms)),
      dead_worker_leases_sent_again_after_kill_s: takeover.map((entry) => seconds(entry.afterKillMs)),
    };

    // Outbox events lost with Redis: relayed before its kill, not recorded by every consumer of lead_created when it
    // came back; each must be re-enqueued by the reconciler (or have been recorded by a job a worker was still running).
    const leadConsumers = (
      await query<{ consumer: string }>(
        `SELECT DISTINCT consumer FROM platform.event_inbox i JOIN platform.outbox o ON o.id = i.event_id WHERE o.account_id = $1 AND o.type = 'lead_created'`,
        [accountId],
      )
    ).map((row) => row.consumer);
    const lostCandidates = recordedAtRedisRestart.filter((event) => leadConsumers.some((consumer) => !event.consumers.includes(consumer)));
    const lostRows = await query<{ id: string; attempts: number; reconciled_ms: number | null; recorded_by: number }>(
      `SELECT o.id, o.reconcile_attempts AS attempts, (extract(epoch FROM o.reconciled_at) * 1000)::float8 AS reconciled_ms,
              (SELECT count(*)::int FROM platform.event_inbox i WHERE i.event_id = o.id) AS recorded_by
         FROM platform.outbox o WHERE o.id = ANY($1::uuid[])`,
      [lostCandidates.map((event) => event.id)],
    );
    // Recorded after Redis's restart without a re-enqueue: its job was still running in a worker, it was not lost.
    const survived = lostRows.filter((row) => row.attempts === 0 && row.recorded_by >= leadConsumers.length);
    const lost = lostRows.filter((row) => !survived.includes(row));
    const reenqueueMs = lost.filter((row) => row.attempts > 0 && row.reconciled_ms !== null).map((row) => Math.round((row.reconciled_ms as number) - redisRestartedAt));
    const reconcilerSaw = service!.warnings(/Redis's data was lost/).map(({ at, entry }) => `${new Date(at).toISOString()} lostBefore ${String(entry.lostBefore)}`);
    const outboxRecovery = {
      lead_created_consumers: leadConsumers,
      relayed_before_kill: recordedAtRedisRestart.length,
      lost_with_redis: lost.length,
      survived_in_a_running_job: survived.length,
      reenqueued: reenqueueMs.length,
      reenqueue_after_redis_restart_s: { min: reenqueueMs.length > 0 ? seconds(Math.min(...reenqueueMs)) : null, max: reenqueueMs.length > 0 ? seconds(Math.max(...reenqueueMs)) : null },
      reconciler_loss_warnings: reconcilerSaw,
    };
    console.log(`[faults] seed ${seed} recovery: worker ${JSON.stringify(workerRecovery)}; outbox ${JSON.stringify(outboxRecovery)}`);
    const deliveryRows = [...deliveryOf.values()];
    // Where the lost events were written relative to the Redis outage (relayed into the Redis that was then wiped, or later).
    const redisOutage = injected.find((fault) => fault.kind === 'redis')!;
    const whenWritten = (event: { occurred_ms: number }) =>
      event.occurred_ms < redisOutage.from ? 'before_redis_killed' : event.occurred_ms <= redisOutage.to ? 'while_redis_down' : 'after_redis_restarted';
    const summary = {
      seed,
      leads: LEADS,
      redis_jobs_pending_at_kill: jobsLostWithRedis,
      faults_injected: injected.map((fault) => ({ kind: fault.kind, at_s: Math.round(fault.atMs / 100) / 10, took_ms: fault.tookMs, detail: fault.detail })),
      captures: {
        acknowledged: acknowledged.length,
        given_up: givenUp.length,
        created: acknowledged.filter((outcome) => outcome.acknowledged!.body?.status === 'created').length,
        idempotent_replay: acknowledged.filter((outcome) => outcome.acknowledged!.body?.status === 'idempotent_replay').length,
        requests: outcomes.reduce((sum, outcome) => sum + outcome.attempts, 0),
        leads_retried: outcomes.filter((outcome) => outcome.attempts > 1).length,
        failed_attempts_by_cause: countBy(outcomes.flatMap((outcome) => outcome.failures)),
        max_attempts_for_one_lead: Math.max(...outcomes.map((outcome) => outcome.attempts)),
      },
      contacts: { rows: contacts.reduce((sum, row) => sum + row.n, 0), distinct_emails: contacts.length },
      idempotency_keys_processing: stranded.length,
      lead_created: {
        events: leadEvents.length,
        relayed: leadEvents.filter((event) => event.relayed).length,
        relay_retried: leadEvents.filter((event) => event.relay_attempts > 1).length,
        reenqueued_by_reconciler: reconciled,
        delivered_once: leadEvents.filter((event) => deliveriesPerEvent.get(event.id)?.size === 1).length,
        never_delivered: neverDelivered.length,
        never_delivered_without_delivery_row: neverDelivered.filter((event) => !deliveryRows.some((row) => row.event_id === event.id)).length,
        never_delivered_by_when_written: countBy(neverDelivered.map(whenWritten)),
        delivered_by_more_than_one_delivery: [...deliveriesPerEvent.values()].filter((ids) => ids.size > 1).length,
      },
      recovery: { worker: workerRecovery, outbox: outboxRecovery },
      webhook_requests: {
        received: received.length,
        distinct_deliveries: requestsPerDelivery.size,
        // Same X-Service-Delivery sent again (at-least-once after a worker or database loss mid-attempt; receivers deduplicate on it).
        repeated_requests: received.length - requestsPerDelivery.size,
        bad_signatures: badSignatures.length,
        unknown_deliveries: unknownDeliveries.length,
        wrong_payloads: wrongPayloads.length,
        delivery_rows_by_status: countBy(deliveryRows.map((row) => row.status)),
      },
      app_warnings_and_errors: Object.fromEntries([...service!.problems.entries()].sort((a, b) => b[1] - a[1])),
      process_exits_reported_by_supervisor: service!.reportedExits().map((exit) => `${exit.label} pid ${exit.pid}: ${exit.how}`),
      ms: { boot: bootMs, captures_and_faults: captureMs, settle: settleMs, settle_window: SETTLE_MS, total: Date.now() - startedAt },
    };
    console.log(`[faults] summary\n${JSON.stringify(summary, null, 2)}`);
    const perEvent = countBy(lost.map((row) => (row.attempts > 0 && row.reconciled_ms !== null ? `${seconds(row.reconciled_ms - redisRestartedAt)} s` : 'never')));
    console.log(
      [
        `[faults] FIGURES seed ${seed}`,
        `worker ready→first accepted delivery ${workerRecovery.first_accepted_delivery_after_ready_s} s (from deliverable +${workerRecovery.deliverable_from_s !== null && workerRecovery.worker_ready_at_s !== null ? seconds((deliverableFrom - workerRestartedAt)) : '?'} s: ${workerRecovery.first_accepted_delivery_after_deliverable_s} s)`,
        `takeover: ${takeover.length} lease(s) held at the kill, sent again ${span(workerRecovery.dead_worker_leases_sent_again_after_ready_s)} s after ready (${span(workerRecovery.dead_worker_leases_sent_again_after_kill_s)} s after the kill)`,
        `Redis: ${lost.length} lead_created lost (${survived.length} finished by running jobs), re-enqueued after Redis's restart (s: events) ${JSON.stringify(perEvent)}`,
        `leads ${acknowledged.length}/${LEADS} acknowledged, ${summary.lead_created.delivered_once}/${leadEvents.length} delivered once, ${summary.webhook_requests.repeated_requests} repeated requests`,
        `${Math.round((Date.now() - startedAt) / 1000)} s`,
      ].join(' | '),
    );

    // 5. The checks, all evaluated; the failing ones are reported together (count, then the first cases).
    const outcomeOfKey = new Map(outcomes.map((outcome) => [outcome.lead.idempotencyKey, outcome]));
    const checks: Record<string, string[]> = {
      'the five faults were injected': [
        ...(injected.map((fault) => fault.kind).sort().join() === [...FAULT_KINDS].sort().join() ? [] : [`injected: ${injected.map((fault) => fault.kind).join(', ')}`]),
        ...(service!.reportedExits().some((exit) => exit.label === 'worker' && exit.how === 'signal SIGKILL') ? [] : ['the supervisor reported no worker killed by SIGKILL']),
      ],
      'the replacement worker reported ready': replacementReady ? [] : [`no worker ready line after the kill of pid ${workerKill?.killed}`],
      // The worker delivering again: its first request to the receiver once Redis and PostgreSQL answer,
      // whatever the receiver answers. (The first ACCEPTED delivery after a receiver outage also waits for
      // each delivery's retry backoff: printed above, not the worker's recovery.)
      [`deliveries resume within ${WORKER_RECOVERY_LIMIT_MS} ms of the worker's restart`]:
        firstAttemptAfterRestart !== undefined && firstAttemptAfterRestart - reattemptFrom <= WORKER_RECOVERY_LIMIT_MS
          ? []
          : [`first delivery request ${firstAttemptAfterRestart === undefined ? 'never' : `${firstAttemptAfterRestart - reattemptFrom} ms`} after ${new Date(reattemptFrom).toISOString()}`],
      // Measured, not assumed: the worker held leases at its kill, and each was sent again within the limit of the replacement's ready.
      [`the dead worker's leased attempts taken over within ${WORKER_RECOVERY_LIMIT_MS} ms of the replacement's ready (measured)`]: [
        ...(takeover.length === 0 ? ['the worker held no delivery lease at its kill: the takeover was not exercised'] : []),
        ...takeover
          .filter((entry) => entry.ms === null || entry.ms > WORKER_RECOVERY_LIMIT_MS)
          .map((entry) => `delivery ${entry.deliveryId} ${entry.ms === null ? 'never sent again' : `sent again ${entry.ms} ms after ${new Date(reattemptFrom).toISOString()}`}`),
      ],
      [`outbox events lost with Redis, each re-enqueued within ${REENQUEUE_LIMIT_MS} ms of its restart (measured)`]: [
        ...(lost.length === 0 ? [`no lead_created was lost with Redis (${survived.length} unrecorded at its restart were finished by running jobs): the re-enqueue was not exercised`] : []),
        ...lost
          .filter((row) => row.attempts === 0 || row.reconciled_ms === null || row.reconciled_ms - redisRestartedAt > REENQUEUE_LIMIT_MS)
          .map((row) => `${row.id} ${row.attempts === 0 ? 'never re-enqueued' : `re-enqueued ${Math.round((row.reconciled_ms as number) - redisRestartedAt)} ms after Redis's restart`}`),
      ],
      'every lead acknowledged with a 2xx': givenUp.map((outcome) => `lead ${outcome.lead.index} (${outcome.lead.email}): ${outcome.gaveUp}`),
      'every acknowledged lead exactly once in contacts.contacts': [
        ...acknowledged.filter((outcome) => !contactsByEmail.has(outcome.lead.email)).map((outcome) => `${outcome.lead.email} missing`),
        ...contacts.filter((row) => row.n !== 1).map((row) => `${row.email} × ${row.n}`),
        ...(contacts.length === LEADS ? [] : [`${contacts.length} distinct emails for ${LEADS} leads`]),
      ],
      'every lead a new contact (or a replay of its own capture)': acknowledged
        .filter((outcome) => outcome.acknowledged!.body?.contact_was_new !== true && outcome.acknowledged!.body?.status !== 'idempotent_replay')
        .map(leadName),
      'no Idempotency-Key left processing': stranded.map((row) => {
        const outcome = outcomeOfKey.get(row.key);
        return `${row.key} (lease until ${new Date(row.lease_expires_at).toISOString()}; its lead answered ${outcome?.acknowledged?.status ?? 'never'} after ${outcome?.attempts} attempt(s): ${outcome?.failures.join(', ') || 'no failure'})`;
      }),
      'one lead_created per lead in platform.outbox': plan.leads
        .filter((lead) => eventsPerEmail.get(lead.email) !== 1)
        .map((lead) => `${lead.email}: ${eventsPerEmail.get(lead.email) ?? 0} lead_created`),
      'every webhook request signed, of a known delivery, carrying its own capture': [
        ...badSignatures.map((id) => `delivery ${id}: bad signature`),
        ...unknownDeliveries.map((id) => `delivery ${id}: no lead_created of the account behind it`),
        ...wrongPayloads.map((id) => `delivery ${id}: wrong event header, id or capture_id`),
      ],
      [`every lead_created received exactly once by event id within ${SETTLE_MS} ms`]: [
        ...neverDelivered.map(
          (event) =>
            `${event.id} never delivered (written ${whenWritten(event).replace(/_/g, ' ')}; ${deliveryRows.some((row) => row.event_id === event.id) ? 'delivery row not succeeded' : 'no delivery row'})`,
        ),
        ...[...deliveriesPerEvent.entries()].filter(([, ids]) => ids.size > 1).map(([eventId, ids]) => `${eventId} delivered by ${ids.size} deliveries`),
      ],
    };
    const failed = Object.fromEntries(
      Object.entries(checks)
        .filter(([, problems]) => problems.length > 0)
        .map(([name, problems]) => [name, `${problems.length} case(s); first: ${problems.slice(0, 5).join(' | ')}`]),
    );
    if (Object.keys(failed).length > 0) {
      console.log(
        `[faults] seed ${seed}: ${Object.keys(failed).length} check(s) failed\n--- apps' warnings and errors over the run (count × app level: message)\n${service!.problemSummary()}\n${diagnostics()}`,
      );
    }
    expect(failed).toEqual({});
  }, 300_000);
});

/** `min–max` of `values` (`never` when one is null, `-` when there is none). */
function span(values: (number | null)[]): string {
  if (values.length === 0) return '-';
  if (values.some((value) => value === null)) return 'never';
  const numbers = values as number[];
  return `${Math.min(...numbers)}–${Math.max(...numbers)}`;
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function leadName(outcome: CaptureOutcome): string {
  const lead: LeadSpec = outcome.lead;
  return `lead ${lead.index} (${lead.email}): ${JSON.stringify(outcome.acknowledged?.body).slice(0, 200)}`;
}
