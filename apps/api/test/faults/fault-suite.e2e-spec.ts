import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { Pool } from 'pg';
import { generateCertificate, HttpsReceiver, signatureMatches, TestCertificate } from '../support/webhooks-fixtures';
import { CaptureClient, CaptureOutcome } from './support/capture-client';
import { buildFaultPlan, faultSeedFromEnv, FaultSpec, LeadSpec } from './support/fault-plan';
import { PrivatePostgres } from './support/private-postgres';
import { PrivateRedis } from './support/private-redis';
import { SupervisedService } from './support/supervised-service';

/* eslint-disable @typescript-eslint/no-explicit-any -- rows and bodies are read member by member */

/**
 * Fault suite (issue 12, Deliver 2, third campaign). The whole service as `npm start` runs it (migrations,
 * 2 api processes and a worker under the supervisor) on a PostgreSQL cluster and a Redis server of the
 * test's OWN (initdb + pg_ctl, redis-server, on free ports; the machine's shared servers are never
 * touched). An account and a `lead_created` webhook subscription to a local HTTPS receiver are made through
 * the operator and public APIs; then 1,000 leads are captured, each a new person with its own
 * Idempotency-Key, retried with the same key until acknowledged, while three faults are injected in a
 * seeded order, each right after a burst of leads: Redis is SIGKILLed once jobs are pending in its queues
 * and restarted EMPTY 9–12 s later, PostgreSQL is restarted (`pg_ctl restart -m fast|immediate`) with
 * captures in flight, and the worker is SIGKILLed (the supervisor restarts it). Then, all evaluated and
 * the failing ones reported together:
 *
 * - every lead was acknowledged (2xx) and exists exactly once in `contacts.contacts` (by email);
 * - no Idempotency-Key is left `processing` in `platform.idempotency_keys`;
 * - every lead has exactly one `lead_created` event in `platform.outbox`;
 * - every `lead_created` event reaches the receiver exactly once by event id (one delivery, deduplicated
 *   on `X-Service-Delivery` as receivers are told to) within the settle window, each request correctly
 *   signed and carrying that event's capture.
 *
 * Seeded: `FAULT_SEED` (default 20261125) fixes the leads and the fault order and timing; the seed and the
 * counts are printed. Shortened by configuration: webhook retry base 200 ms, sweeps every second, an
 * Idempotency-Key lease of 5 s, relay polling every 100 ms, outbox reconciliation every 2 s after 15 s.
 * `FAULT_LEADS` (default 1000); `FAULT_SETTLE_MS` (default 90000: how long after the captures and faults
 * ended every event has to arrive).
 */

const LEADS = Number(process.env.FAULT_LEADS ?? 1000);
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
/** Redis is killed once this many jobs are pending in its queues (or 8 s after the burst). */
const JOBS_AT_KILL = 20;
/** Pause after settling, for late duplicate deliveries to show up (ms). */
const LATE_DUPLICATE_WINDOW_MS = 3000;
const API_PROCESSES = 2;
const WEBHOOK_PATH = '/faults';

/** Settings of the service under test: the retry schedule, sweeps and lease shortened so that the run fits in minutes. */
const SHORTENED = {
  OUTBOX_RELAY_INTERVAL_MS: '100',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_LEASE_MS: '12000',
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  WEBHOOK_SWEEP_GRACE_MS: '2000',
  IDEMPOTENCY_LEASE_MS: '5000',
  // The outbox reconciler (events relayed but not recorded by every consumer are re-enqueued): every 2 s, after 15 s.
  OUTBOX_RECONCILE_INTERVAL_MS: '2000',
  OUTBOX_RECONCILE_GRACE_MS: '15000',
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

describe('fault suite: captures with idempotency keys while Redis restarts empty, PostgreSQL restarts and the worker is killed', () => {
  const seed = faultSeedFromEnv();
  const plan = buildFaultPlan(seed, LEADS, CAPTURE_WINDOW_MS);
  const adminToken = `faults-${randomBytes(12).toString('hex')}`;
  let postgres: PrivatePostgres | undefined;
  let redis: PrivateRedis | undefined;
  let service: SupervisedService | undefined;
  let certificate: TestCertificate | undefined;
  let receiver: HttpsReceiver | undefined;
  let db: Pool | undefined;
  let databaseUrl = '';
  const startedAt = Date.now();
  let bootMs = 0;
  /** Aborts the captures (a fault that could not be injected, or the end of the test). */
  const abort = new AbortController();

  const diagnostics = () => [service?.diagnostics() ?? '', '--- redis', redis?.logTail() ?? '', '--- postgres', postgres?.logTail(15) ?? ''].join('\n');

  beforeAll(async () => {
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
        let pending: Record<string, number> = {};
        const total = () => Object.values(pending).reduce((sum, n) => sum + n, 0);
        for (const until = Date.now() + 8000; total() < JOBS_AT_KILL && Date.now() < until; ) {
          await pause(25);
          pending = await redis!.pendingJobs('faults:bull');
        }
        jobsLostWithRedis = pending;
        atMs = Date.now() - t0;
        await redis!.kill();
        await pause(fault.downMs);
        await redis!.restart();
        detail = `burst of ${fault.burst} leads, SIGKILL with ${total()} jobs pending (${JSON.stringify(pending)}), down ${fault.downMs} ms, restarted empty (${await redis!.keyCount().catch(() => '?')} keys right after start)`;
      } else if (fault.kind === 'postgres') {
        await pause(fault.delayMs);
        atMs = Date.now() - t0;
        await postgres!.restart(fault.mode);
        detail = `burst of ${fault.burst} leads, ${fault.delayMs} ms later pg_ctl restart -m ${fault.mode}`;
      } else {
        await pause(fault.delayMs);
        atMs = Date.now() - t0;
        const { killed, replacement } = await service!.killWorker();
        detail = `burst of ${fault.burst} leads, ${fault.delayMs} ms later SIGKILL worker pid ${killed}; supervisor started pid ${replacement}`;
      }
      injected.push({ kind: fault.kind, atMs, tookMs: Date.now() - t0 - atMs, detail, from: t0 + atMs, to: Date.now() });
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
      const receivedEvents = new Set(verifyReceived().map((request) => deliveryOf.get(String(request.headers['x-service-delivery']))?.event_id));
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
    const neverDelivered = leadEvents.filter((event) => !deliveriesPerEvent.has(event.id));
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

    // 5. The checks, all evaluated; the failing ones are reported together (count, then the first cases).
    const outcomeOfKey = new Map(outcomes.map((outcome) => [outcome.lead.idempotencyKey, outcome]));
    const checks: Record<string, string[]> = {
      'the three faults were injected': [
        ...(injected.map((fault) => fault.kind).sort().join() === 'postgres,redis,worker' ? [] : [`injected: ${injected.map((fault) => fault.kind).join(', ')}`]),
        ...(service!.reportedExits().some((exit) => exit.label === 'worker' && exit.how === 'signal SIGKILL') ? [] : ['the supervisor reported no worker killed by SIGKILL']),
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
    if (Object.keys(failed).length > 0) console.log(`[faults] seed ${seed}: ${Object.keys(failed).length} check(s) failed\n${diagnostics()}`);
    expect(failed).toEqual({});
  }, 330_000);
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function leadName(outcome: CaptureOutcome): string {
  const lead: LeadSpec = outcome.lead;
  return `lead ${lead.index} (${lead.email}): ${JSON.stringify(outcome.acknowledged?.body).slice(0, 200)}`;
}
