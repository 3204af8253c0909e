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

/**
 * `npm run bench:soak` (issue 11, item 6): a mixed soak of the whole service as `npm start` runs it
 * (api processes + worker), started by this script on a database and Redis prefix of its own, with a
 * webhook subscription (`"*"`) to a local HTTPS receiver:
 *
 * 1. 20 s unthrottled at `SOAK_CONNECTIONS` (default 32) measure the mix's maximum (requests per second);
 * 2. `SOAK_MINUTES` (default 10) at `SOAK_LOAD` (default 0.8) of that maximum (autocannon `overallRate`);
 *    the mix, per connection in turn: lead capture of a new person (own client address through
 *    `TRUST_PROXY`), contact read, contact list, `/v1/me`;
 * 3. every 15 s: the RSS of every process of the service (KiB, from /proc), Redis `used_memory` (bytes),
 *    the outbox backlog (rows not relayed) and the webhook deliveries received.
 *
 * Reports 5xx (must be 0), RSS of each process after warm-up (2 min) and at the end, Redis memory and
 * the outbox backlog at both instants, and `lead_created` events delivered; writes
 * `bench/results/soak-<date>.json`. Run it with nothing else on the machine. Needs `openssl`.
 */
const ROOT = join(__dirname, '..', '..');
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const LOAD = Number(process.env.SOAK_LOAD ?? 0.8);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32);
const SAMPLE_EVERY_MS = 15_000;
const WARM_UP_MS = 120_000;
const ADMIN_TOKEN = `soak-${randomBytes(8).toString('hex')}`;
const say = (message: string) => console.log(`[soak] ${new Date().toISOString().slice(11, 19)} ${message}`);

interface Sample {
  at_seconds: number;
  rss_kib: Record<string, number>;
  redis_used_memory_bytes: number;
  outbox_backlog: number;
  webhooks_received: number;
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
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
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
      res.writeHead(200).end();
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
        body: JSON.stringify({ url: `https://127.0.0.1:${receiverPort}/hooks`, events: '*' }),
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

    say('measuring the maximum of the mix (20 s, unthrottled)');
    const maximum = await run(20);
    const rate = Math.max(1, Math.floor(maximum.requests.average * LOAD));
    say(`maximum ${maximum.requests.average.toFixed(0)} req/s (5xx ${maximum['5xx']}); soaking ${MINUTES} min at ${rate} req/s (${LOAD * 100} %)`);

    const samples: Sample[] = [];
    const startedAt = Date.now();
    const sample = async () => {
      const tree = processTree(service.pid as number);
      const info = await redis.info('memory');
      const [{ backlog }] = (await pg.query('SELECT count(*)::int AS backlog FROM platform.outbox WHERE relayed_at IS NULL')).rows;
      samples.push({
        at_seconds: Math.round((Date.now() - startedAt) / 1000),
        rss_kib: Object.fromEntries([...tree].map(([pid, args]) => [label(pid, args), rssKib(pid)])),
        redis_used_memory_bytes: Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0),
        outbox_backlog: backlog,
        webhooks_received: [...received.values()].reduce((sum, n) => sum + n, 0),
      });
      const last = samples[samples.length - 1] as Sample;
      say(`t=${last.at_seconds}s rss ${JSON.stringify(last.rss_kib)} redis ${last.redis_used_memory_bytes} backlog ${last.outbox_backlog} webhooks ${last.webhooks_received}`);
    };
    await sample();
    const timer = setInterval(() => void sample(), SAMPLE_EVERY_MS);
    const soak = await run(MINUTES * 60, rate);
    clearInterval(timer);
    await new Promise((resolve) => setTimeout(resolve, 10_000)); // let the worker drain the outbox and deliveries
    await sample();

    const [{ leads }] = (await pg.query(`SELECT count(*)::int AS leads FROM platform.outbox WHERE type = 'lead_created'`)).rows;
    const warm = samples.find((entry) => entry.at_seconds * 1000 >= WARM_UP_MS) ?? (samples[0] as Sample);
    const end = samples[samples.length - 1] as Sample;
    const report = {
      date: localIsoDate(new Date(startedAt)),
      started_at: new Date(startedAt).toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, node: process.version },
      settings: { minutes: MINUTES, load: LOAD, connections: CONNECTIONS, mix: requests.map((request) => `${request.method} ${request.path}`) },
      maximum: { requests_per_second: Math.round(maximum.requests.average), status_5xx: maximum['5xx'], p99_ms: maximum.latency.p99 },
      soak: {
        target_rate: rate,
        requests_per_second: Math.round(soak.requests.average),
        responses: soak.requests.total,
        status_codes: Object.fromEntries(Object.entries(soak.statusCodeStats).map(([code, stat]) => [code, stat.count])),
        status_5xx: soak['5xx'],
        errors: soak.errors,
        timeouts: soak.timeouts,
        latency_ms: { p50: soak.latency.p50, p99: soak.latency.p99, max: soak.latency.max },
      },
      after_warm_up: warm,
      end,
      lead_created_events: leads,
      webhooks_received_by_event: Object.fromEntries(received),
      bad_signatures: badSignatures,
      samples,
    };
    const dir = process.env.BENCH_RESULTS_DIR ?? join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `soak-${report.date}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    say(`5xx ${soak['5xx']}, errors ${soak.errors}, p99 ${soak.latency.p99} ms; lead_created ${leads}, delivered ${received.get('lead_created') ?? 0}, bad signatures ${badSignatures}`);
    say(`after warm-up: ${JSON.stringify(warm.rss_kib)} redis ${warm.redis_used_memory_bytes} backlog ${warm.outbox_backlog}`);
    say(`end:           ${JSON.stringify(end.rss_kib)} redis ${end.redis_used_memory_bytes} backlog ${end.outbox_backlog}`);
    say(`written ${file}`);
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
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
