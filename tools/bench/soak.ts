import { execFileSync, spawn, ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { forwardedClients, leadCaptureBody, PersonFactory } from './scenarios';
import { localIsoDate } from './report';

import { WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import {
  backlogGrew,
  CalibrationRound,
  DEFAULT_BISECTION_LIMITS,
  DEFAULT_GROWTH_TOLERANCE,
  INITIAL_BISECTION,
  nextCalibrationRate,
  redisFlat,
  rssPerProcess,
  summariseRound,
  sustainableMaximum,
  webhookBacklog,
  WebhookReading,
} from './soak-calibration';

/**
 * `npm run bench:soak` (issue 11, item 6; tools/bench/README.md › Soak): a mixed soak of the whole service
 * as `npm start` runs it (api processes + worker), started by this script on a database and Redis prefix
 * of its own, with a webhook subscription (`SOAK_SUBSCRIPTION_EVENTS`, default `"*"`) to a local HTTPS
 * receiver. The mix, per connection in turn: lead capture of a new person (own client address through
 * `TRUST_PROXY`), contact read, contact list, `/v1/me`.
 *
 * 1. **Burst**: 20 s unthrottled at `SOAK_CONNECTIONS` (default 32): `burst_max_rps`, the most HTTP
 *    answers per second. It counts answers only, not the asynchronous work each capture leaves (outbox
 *    relay, webhook fan-out and deliveries, automations), which the worker does afterwards.
 * 2. **Calibration**: rounds of `SOAK_CALIBRATION_SECONDS` (default 60) at a rate R, the first at
 *    `SOAK_LOAD` × burst maximum, reading every 5 s the webhook backlog (events written of the subscribed
 *    types − deliveries succeeded) and the delivery rates. A round's backlog grew when its end > backlog
 *    at 15 s + 2 % of the events written + 2 s of them. The rounds bisect (`nextCalibrationRate`) between
 *    the highest rate that held and the lowest that grew; until one held, a round that grew is followed
 *    by one at max(R × delivered/created, R / 2). Each round starts after the backlog drained; they stop
 *    after `SOAK_CALIBRATION_ROUNDS` (default 6), after a first round that held, or once the two rates are
 *    within 15 %. `sustainable_max_rps` is the highest round rate whose backlog did not grow.
 * 3. **Soak**: `SOAK_MINUTES` (default 10) at `SOAK_LOAD` (default 0.8) × `sustainable_max_rps` (autocannon
 *    `overallRate`); every 15 s the RSS of every process of the service (KiB, from /proc), Redis
 *    `used_memory` (bytes), the outbox backlog (rows not relayed), the webhook backlog and queue lengths.
 *
 * Reports the conditions with their figures (after warm-up → end of the load): zero 5xx; RSS growth
 * < 10 % per process; Redis growth < 10 % or < 10 MB; outbox and webhook backlogs not growing (same
 * tolerance as calibration); writes `soak-<date>.json` to `BENCH_RESULTS_DIR` (default bench/results).
 * Run it with nothing else on the machine. Needs `openssl`.
 */
const ROOT = join(__dirname, '..', '..');
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const LOAD = Number(process.env.SOAK_LOAD ?? 0.8);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32);
const BURST_SECONDS = Number(process.env.SOAK_BURST_SECONDS ?? 20);
const CALIBRATION_SECONDS = Number(process.env.SOAK_CALIBRATION_SECONDS ?? 60);
const CALIBRATION_ROUNDS = Number(process.env.SOAK_CALIBRATION_ROUNDS ?? DEFAULT_BISECTION_LIMITS.maxRounds);
const DRAIN_TIMEOUT_SECONDS = Number(process.env.SOAK_DRAIN_TIMEOUT_SECONDS ?? 300);
const SUBSCRIPTION_EVENTS = (process.env.SOAK_SUBSCRIPTION_EVENTS ?? '*').trim();
/** Milliseconds the receiver waits before answering (default 0): models a slow receiver, or checks that calibration finds a lower rate. */
const RECEIVER_DELAY_MS = Number(process.env.SOAK_RECEIVER_DELAY_MS ?? 0);
const SAMPLE_EVERY_MS = 15_000;
const CALIBRATION_SAMPLE_EVERY_MS = 5_000;
/** RSS, Redis and backlogs are compared from this instant on (2 min, or a quarter of a shorter soak). */
const WARM_UP_MS = Math.min(120_000, (MINUTES * 60_000) / 4);
const ADMIN_TOKEN = `soak-${randomBytes(8).toString('hex')}`;
const say = (message: string) => console.log(`[soak] ${new Date().toISOString().slice(11, 19)} ${message}`);

/** The event types the subscription receives: the whole catalog for `*`, else the comma-separated names. */
const SUBSCRIBED_TYPES: string[] =
  SUBSCRIPTION_EVENTS === '*'
    ? [...WEBHOOK_EVENTS]
    : SUBSCRIPTION_EVENTS.split(',')
        .map((name) => name.trim())
        .filter((name) => name.length > 0);

/** Webhook side of the service at one instant (a {@link WebhookReading} plus what explains it). */
interface WebhookState extends WebhookReading {
  /** Deliveries created (`webhooks.deliveries` rows), failed ones, and the backlog (events written − succeeded). */
  deliveries_created: number;
  deliveries_failed: number;
  webhook_backlog: number;
  /** Outbox rows written in all (any type) and not yet relayed. */
  outbox_written: number;
  outbox_backlog: number;
  /** BullMQ jobs under the soak's prefix: `webhook-delivery` waiting (wait + prioritized) and delayed (retries), fan-out batches waiting. */
  delivery_jobs_waiting: number;
  delivery_jobs_delayed: number;
  fanout_jobs_waiting: number;
}

/** One reading of the soak (every 15 s). */
interface Sample extends WebhookState {
  rss_kib: Record<string, number>;
  redis_used_memory_bytes: number;
  /** Webhook POSTs the receiver got (any event, duplicates included). */
  webhooks_received: number;
}

/** A phase's periodic reader: `stop()` ends the timer and waits for the reading in flight. */
function every(ms: number, read: () => Promise<void>): () => Promise<void> {
  let chain = Promise.resolve();
  const timer = setInterval(() => {
    chain = chain.then(read).catch((error: unknown) => say(`reading failed: ${String(error)}`));
  }, ms);
  return async () => {
    clearInterval(timer);
    await chain;
  };
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Every process of the tree under `root` (pid → command line), the root included. */
function processTree(root: number): Map<number, string> {
  const lines = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).trim().split('\n');
  const rows = lines.map((line) => {
    const [pid, ppid, ...args] = line.trim().split(/\s+/);
    return { pid: Number(pid), ppid: Number(ppid), args: args.join(' ') };
  });
  const tree = new Map<number, string>();
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    const row = rows.find((candidate) => candidate.pid === pid);
    if (row) tree.set(pid, row.args);
    for (const child of rows.filter((candidate) => candidate.ppid === pid)) pending.push(child.pid);
  }
  return tree;
}

function rssKib(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function label(pid: number, args: string): string {
  if (args.includes('apps/worker')) return `worker:${pid}`;
  if (args.includes('apps/api')) return `api:${pid}`;
  if (args.includes('start.mjs')) return `supervisor:${pid}`;
  return `other:${pid}`;
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 240; i += 1) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm start exited with ${child.exitCode ?? child.signalCode}`);
    const ok = await fetch(`${baseUrl}/health`).then((response) => response.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the service did not become healthy within 120 s');
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function main(): Promise<void> {
  if (SUBSCRIBED_TYPES.length === 0) throw new Error('SOAK_SUBSCRIPTION_EVENTS must be "*" or comma-separated webhook event names');
  if (!(CALIBRATION_SECONDS >= 10) || !(CALIBRATION_ROUNDS >= 1)) throw new Error('SOAK_CALIBRATION_SECONDS must be at least 10 and SOAK_CALIBRATION_ROUNDS at least 1');
  const suffix = randomBytes(4).toString('hex');
  const database = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/leadflow');
  database.pathname = `/leadflow_soak_${suffix}`;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
  const redisPrefix = `lfsoak_${suffix}`;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;

  const certDir = mkdtempSync(join(tmpdir(), 'leadflow-soak-ca-'));
  const certFile = join(certDir, 'cert.pem');
  const keyFile = join(certDir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  let secret = '';
  const received = new Map<string, number>();
  let badSignatures = 0;
  const receiver = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['x-service-signature']));
      if (!match || createHmac('sha256', secret).update(`${match[1]}.${raw}`).digest('hex') !== match[2]) badSignatures += 1;
      const event = String(req.headers['x-service-event'] ?? 'unknown');
      received.set(event, (received.get(event) ?? 0) + 1);
      if (RECEIVER_DELAY_MS > 0) setTimeout(() => res.writeHead(200).end(), RECEIVER_DELAY_MS);
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as AddressInfo).port;

  say(`starting npm start (node tools/scripts/start.mjs) on ${baseUrl}, database ${database.pathname.slice(1)}, prefix ${redisPrefix}`);
  const service = spawn(process.execPath, ['tools/scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: database.toString(),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      PORT: String(port),
      ADMIN_TOKEN,
      SEED_DEMO: 'false',
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CA_FILE: certFile,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pg = new Client({ connectionString: database.toString() });
  const redis = new Redis(redisUrl);
  try {
    await waitForHealth(baseUrl, service);
    await pg.connect();
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const account = (await json(
      await fetch(`${baseUrl}/admin/v1/accounts`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'Soak', api_terms_accepted: true, api_keys: [{ name: 'soak', preset: 'full_integration', per_hour: 1_000_000 }] }),
      }),
    )) as { account_id: string; api_keys: { soak: { key: string } } };
    const auth = { authorization: `Bearer ${account.api_keys.soak.key}` };
    const subscription = await json(
      await fetch(`${baseUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `https://127.0.0.1:${receiverPort}/hooks`, events: SUBSCRIPTION_EVENTS === '*' ? '*' : SUBSCRIBED_TYPES }),
      }),
    );
    secret = (subscription.data as { secret: string }).secret;
    const people = new PersonFactory(`soak${suffix}`);
    const contact = await json(
      await fetch(`${baseUrl}/v1/leads/capture`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: leadCaptureBody(people.next()) }),
    );
    const contactId = (contact.contact_id ?? (contact.data as { contact_id?: string } | undefined)?.contact_id) as string;
    const clients = forwardedClients();
    const requests: autocannon.Request[] = [
      {
        method: 'POST',
        path: '/v1/leads/capture',
        setupRequest: (request) => ({
          ...request,
          method: 'POST',
          path: '/v1/leads/capture',
          body: leadCaptureBody(people.next()),
          headers: { ...request.headers, 'content-type': 'application/json', ...clients() },
        }),
      },
      { method: 'GET', path: `/v1/contacts/${contactId}` },
      { method: 'GET', path: '/v1/contacts?limit=20' },
      { method: 'GET', path: '/v1/me' },
    ];
    const run = (duration: number, overallRate?: number) =>
      autocannon({
        url: baseUrl,
        connections: CONNECTIONS,
        duration,
        pipelining: 1,
        timeout: 10,
        headers: auth,
        requests,
        ...(overallRate ? { overallRate } : {}),
        renderProgressBar: false,
        renderResultsTable: false,
        renderLatencyTable: false,
      });

    const queueKey = (queue: string, suffix: string) => `${redisPrefix}:bull:${queue}:${suffix}`;
    const webhookState = async (phaseStartedAt: number): Promise<WebhookState> => {
      const [row] = (
        await pg.query(
          `SELECT (SELECT count(*) FROM platform.outbox WHERE type = ANY($1::text[]))::int AS events_written,
                  (SELECT count(*) FROM platform.outbox)::int AS outbox_written,
                  (SELECT count(*) FROM platform.outbox WHERE relayed_at IS NULL)::int AS outbox_backlog,
                  (SELECT count(*) FROM webhooks.deliveries)::int AS deliveries_created,
                  (SELECT count(*) FROM webhooks.deliveries WHERE status = 'succeeded')::int AS deliveries_succeeded,
                  (SELECT count(*) FROM webhooks.deliveries WHERE status = 'failed')::int AS deliveries_failed`,
          [SUBSCRIBED_TYPES],
        )
      ).rows as Omit<WebhookState, 'at_seconds' | 'webhook_backlog' | 'delivery_jobs_waiting' | 'delivery_jobs_delayed' | 'fanout_jobs_waiting'>[];
      const counts = (await redis
        .pipeline()
        .llen(queueKey('webhook-delivery', 'wait'))
        .zcard(queueKey('webhook-delivery', 'prioritized'))
        .zcard(queueKey('webhook-delivery', 'delayed'))
        .llen(queueKey('integration-events.webhooks', 'wait'))
        .zcard(queueKey('integration-events.webhooks', 'prioritized'))
        .exec()) as [Error | null, number][];
      const [wait, prioritized, delayed, fanoutWait, fanoutPrioritized] = counts.map(([error, value]) => (error ? 0 : Number(value)));
      const reading = { at_seconds: Math.round((Date.now() - phaseStartedAt) / 1000), ...(row as NonNullable<typeof row>) };
      return {
        ...reading,
        webhook_backlog: webhookBacklog(reading),
        delivery_jobs_waiting: (wait ?? 0) + (prioritized ?? 0),
        delivery_jobs_delayed: delayed ?? 0,
        fanout_jobs_waiting: (fanoutWait ?? 0) + (fanoutPrioritized ?? 0),
      };
    };
    /** Waits until the outbox is relayed and the webhook backlog is back near zero (≤ max(20, 1 % of `written`)); answers the seconds waited. */
    const drain = async (written: number): Promise<number> => {
      const began = Date.now();
      const limit = Math.max(20, Math.ceil(written * 0.01));
      while (Date.now() - began < DRAIN_TIMEOUT_SECONDS * 1000) {
        const state = await webhookState(began);
        if (state.outbox_backlog === 0 && state.webhook_backlog <= limit) break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const waited = Math.round((Date.now() - began) / 1000);
      if (waited >= DRAIN_TIMEOUT_SECONDS) say(`drain: backlog still above ${limit} after ${DRAIN_TIMEOUT_SECONDS} s (SOAK_DRAIN_TIMEOUT_SECONDS); carrying on`);
      return waited;
    };

    say(`burst: the mix unthrottled for ${BURST_SECONDS} s (HTTP answers only)`);
    const burst = await run(BURST_SECONDS);
    const burstMax = Math.round(burst.requests.average);
    const burstWritten = (await webhookState(Date.now())).events_written;
    say(`burst maximum ${burstMax} req/s (5xx ${burst['5xx']}); draining what it left`);
    const burstDrain = await drain(burstWritten);

    const rounds: CalibrationRound[] = [];
    const firstRate = Math.max(1, Math.floor(burstMax * LOAD));
    let bisection = INITIAL_BISECTION;
    let rate: number | null = firstRate;
    for (let round = 1; rate !== null; round += 1) {
      say(`calibration round ${round}: ${rate} req/s for ${CALIBRATION_SECONDS} s`);
      const began = Date.now();
      const readings: WebhookReading[] = [await webhookState(began)];
      const stop = every(CALIBRATION_SAMPLE_EVERY_MS, async () => {
        readings.push(await webhookState(began));
      });
      const result = await run(CALIBRATION_SECONDS, rate);
      await stop();
      readings.push(await webhookState(began));
      const summary = summariseRound(round, rate, result.requests.average, result['5xx'], CALIBRATION_SECONDS, readings);
      const step = nextCalibrationRate(bisection, summary, { ...DEFAULT_BISECTION_LIMITS, maxRounds: CALIBRATION_ROUNDS });
      bisection = step.state;
      summary.bisection = { low: step.state.low, high: step.state.high, next_rps: step.next, stop: step.stop };
      // drain before the next round; after the last one, before the soak
      summary.drain_seconds = await drain(summary.events_written);
      rounds.push(summary);
      say(
        `round ${round}: ${summary.achieved_rps} req/s, created ${summary.created_per_second}/s, delivered ${summary.delivered_per_second}/s, ` +
          `backlog ${summary.backlog_at_reference} at ${summary.reference_at_seconds} s → ${summary.backlog_at_end}: ${summary.backlog_grew ? 'grew' : 'held'} (drained in ${summary.drain_seconds} s); ` +
          `highest held ${step.state.low ?? '-'}, lowest grown ${step.state.high ?? '-'} req/s → ${step.next === null ? `stop (${step.stop})` : `next ${step.next} req/s`}`,
      );
      rate = step.next;
    }
    const sustainable = sustainableMaximum(rounds, bisection.estimate ?? firstRate);
    const soakRate = Math.max(1, Math.floor(sustainable.sustainable_max_rps * LOAD));
    say(
      `sustainable maximum ${sustainable.sustainable_max_rps} req/s${sustainable.verified ? '' : ' (every round grew: last estimate, unverified)'}; ` +
        `soaking ${MINUTES} min at ${soakRate} req/s (${LOAD * 100} %)`,
    );

    const samples: Sample[] = [];
    const startedAt = Date.now();
    const sample = async (): Promise<Sample> => {
      const tree = processTree(service.pid as number);
      const info = await redis.info('memory');
      const entry: Sample = {
        ...(await webhookState(startedAt)),
        rss_kib: Object.fromEntries([...tree].map(([pid, args]) => [label(pid, args), rssKib(pid)])),
        redis_used_memory_bytes: Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0),
        webhooks_received: [...received.values()].reduce((sum, n) => sum + n, 0),
      };
      say(
        `t=${entry.at_seconds}s rss ${JSON.stringify(entry.rss_kib)} redis ${entry.redis_used_memory_bytes} outbox ${entry.outbox_backlog} ` +
          `webhook backlog ${entry.webhook_backlog} (jobs waiting ${entry.delivery_jobs_waiting}, fan-out ${entry.fanout_jobs_waiting}) received ${entry.webhooks_received}`,
      );
      return entry;
    };
    samples.push(await sample());
    const stopSampling = every(SAMPLE_EVERY_MS, async () => {
      samples.push(await sample());
    });
    const soak = await run(MINUTES * 60, soakRate);
    await stopSampling();
    const end = await sample(); // at the end of the load: the conditions compare this one
    samples.push(end);
    const warm = samples.find((entry) => entry.at_seconds * 1000 >= WARM_UP_MS) ?? (samples[0] as Sample);
    const finalDrain = await drain(end.events_written - warm.events_written);
    const afterDrain = await sample();

    const [{ leads }] = (await pg.query(`SELECT count(*)::int AS leads FROM platform.outbox WHERE type = 'lead_created'`)).rows;
    const rss = rssPerProcess(warm.rss_kib, end.rss_kib);
    const compared = Math.max(1, end.at_seconds - warm.at_seconds);
    const pass = {
      zero_5xx: soak['5xx'] === 0,
      rss_flat: Object.values(rss).every((entry) => entry.ok),
      redis_flat: redisFlat(warm.redis_used_memory_bytes, end.redis_used_memory_bytes),
      outbox_backlog_not_growing: !backlogGrew(warm.outbox_backlog, end.outbox_backlog, end.outbox_written - warm.outbox_written, (end.outbox_written - warm.outbox_written) / compared),
      webhook_backlog_not_growing: !backlogGrew(warm.webhook_backlog, end.webhook_backlog, end.events_written - warm.events_written, (end.events_written - warm.events_written) / compared),
    };
    const report = {
      date: localIsoDate(new Date(startedAt)),
      started_at: new Date(startedAt).toISOString(),
      finished_at: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, node: process.version },
      settings: {
        minutes: MINUTES,
        load: LOAD,
        connections: CONNECTIONS,
        burst_seconds: BURST_SECONDS,
        calibration_seconds: CALIBRATION_SECONDS,
        calibration_rounds_max: CALIBRATION_ROUNDS,
        calibration_converged_ratio: DEFAULT_BISECTION_LIMITS.convergedRatio,
        drain_timeout_seconds: DRAIN_TIMEOUT_SECONDS,
        warm_up_seconds: WARM_UP_MS / 1000,
        growth_tolerance: DEFAULT_GROWTH_TOLERANCE,
        subscription_events: SUBSCRIPTION_EVENTS,
        subscribed_types: SUBSCRIBED_TYPES,
        receiver_delay_ms: RECEIVER_DELAY_MS,
        mix: requests.map((request) => `${request.method} ${request.path}`),
      },
      burst_max_rps: burstMax,
      burst: { requests_per_second: burstMax, status_5xx: burst['5xx'], p99_ms: burst.latency.p99, drain_seconds: burstDrain },
      calibration: rounds,
      sustainable_max_rps: sustainable.sustainable_max_rps,
      sustainable_verified: sustainable.verified,
      soak_rate_rps: soakRate,
      soak: {
        target_rate: soakRate,
        requests_per_second: Math.round(soak.requests.average),
        responses: soak.requests.total,
        status_codes: Object.fromEntries(Object.entries(soak.statusCodeStats).map(([code, stat]) => [code, stat.count])),
        status_5xx: soak['5xx'],
        errors: soak.errors,
        timeouts: soak.timeouts,
        latency_ms: { p50: soak.latency.p50, p99: soak.latency.p99, max: soak.latency.max },
      },
      conditions: {
        compared: { start_at_seconds: warm.at_seconds, end_at_seconds: end.at_seconds },
        status_5xx: soak['5xx'],
        rss_kib: rss,
        redis_used_memory_bytes: { start: warm.redis_used_memory_bytes, end: end.redis_used_memory_bytes },
        outbox_backlog: { start: warm.outbox_backlog, end: end.outbox_backlog, rows_written: end.outbox_written - warm.outbox_written },
        webhook_backlog: { start: warm.webhook_backlog, end: end.webhook_backlog, events_written: end.events_written - warm.events_written },
        pass,
        all_pass: Object.values(pass).every(Boolean),
      },
      after_warm_up: warm,
      end,
      after_drain: { ...afterDrain, drain_seconds: finalDrain },
      lead_created_events: leads,
      webhooks_received_by_event: Object.fromEntries(received),
      bad_signatures: badSignatures,
      samples,
    };
    const dir = process.env.BENCH_RESULTS_DIR ?? join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `soak-${report.date}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    say(`burst ${burstMax} req/s, sustainable ${sustainable.sustainable_max_rps} req/s, soak ${soakRate} req/s (achieved ${report.soak.requests_per_second})`);
    say(`5xx ${soak['5xx']}, errors ${soak.errors}, p99 ${soak.latency.p99} ms; lead_created ${leads}, delivered ${received.get('lead_created') ?? 0}, bad signatures ${badSignatures}`);
    say(`after warm-up: ${JSON.stringify(warm.rss_kib)} redis ${warm.redis_used_memory_bytes} outbox ${warm.outbox_backlog} webhook backlog ${warm.webhook_backlog}`);
    say(`end:           ${JSON.stringify(end.rss_kib)} redis ${end.redis_used_memory_bytes} outbox ${end.outbox_backlog} webhook backlog ${end.webhook_backlog}`);
    say(`conditions: ${JSON.stringify(pass)}`);
    say(`written ${file}`);
  } finally {
    if (service.exitCode === null && service.signalCode === null) {
      const exited = new Promise((resolve) => service.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    await pg.end().catch(() => undefined);
    const keys = await redis.keys(`${redisPrefix}*`).catch(() => [] as string[]);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500)).catch(() => undefined);
    redis.disconnect();
    const maintenance = new URL(database.toString());
    maintenance.pathname = '/postgres';
    const dropper = new Client({ connectionString: maintenance.toString() });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS "${database.pathname.slice(1)}" WITH (FORCE)`).catch(() => undefined);
    await dropper.end();
    receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
