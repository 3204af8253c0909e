import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { AppConfig, ensureDatabase, runMigrations } from '@leadflow/shared-platform';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { ALL_MIGRATIONS } from '../../apps/api/src/database/all-migrations';
import { createWorker } from '../../apps/worker/src/bootstrap';

/**
 * Measurement "1,000 webhook events delivered" (issue 6 › Done when):
 *
 *   node -r @swc-node/register tools/bench/webhooks-1000.ts [count]
 *
 * On a database of its own (created, migrated, dropped at the end) and a Redis prefix of its own:
 * provisions an account through the operator API, subscribes one key to `"*"` at a local HTTPS receiver
 * (self-signed certificate made with openssl, trusted through WEBHOOK_CA_FILE, WEBHOOK_ALLOW_PRIVATE_TARGETS=true),
 * writes `count` (default 1000) catalog events into `platform.outbox` in one transaction, then starts the
 * real worker (relay → fan-out → webhooks consumer → delivery processor) and times until every delivery
 * is `succeeded`. Reports deliveries per second, lost (events never received), duplicates (same
 * X-Service-Delivery received twice) and bad signatures; writes `bench/results/webhooks-<date>.json`.
 */
const COUNT = Number(process.argv[2] ?? 1000);
const ADMIN_TOKEN = 'bench-admin-token';
const say = (message: string) => console.log(`[webhooks-bench] ${message}`);

async function main(): Promise<void> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/leadflow');
  const suffix = randomBytes(4).toString('hex');
  base.pathname = `/leadflow_bench_webhooks_${suffix}`;
  const databaseUrl = base.toString();
  const redisPrefix = `lfbench_webhooks_${suffix}`;
  const certDir = mkdtempSync(join(tmpdir(), 'leadflow-bench-ca-'));
  const certFile = join(certDir, 'cert.pem');
  const keyFile = join(certDir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });

  let secret = '';
  const seen = new Map<string, number>();
  let badSignatures = 0;
  let lastReceivedAt = 0;
  const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(req.headers['x-service-signature']));
      if (!match || createHmac('sha256', secret).update(`${match[1]}.${raw}`).digest('hex') !== match[2]) badSignatures++;
      const delivery = String(req.headers['x-service-delivery']);
      seen.set(delivery, (seen.get(delivery) ?? 0) + 1);
      lastReceivedAt = performance.now();
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: redisPrefix,
    ADMIN_TOKEN,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    WEBHOOK_CA_FILE: certFile,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
  const config = new AppConfig(env);
  say(`database ${databaseUrl}, redis prefix ${redisPrefix}, receiver https://127.0.0.1:${port}`);
  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl, ALL_MIGRATIONS);

  const api = await createApiApp(config);
  const provision = await api.inject({
    method: 'POST',
    url: '/admin/v1/accounts',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'Bench webhooks', api_terms_accepted: true, api_keys: [{ name: 'full', preset: 'full_integration', per_hour: 100000 }] }),
  });
  if (provision.statusCode !== 201) throw new Error(`provisioning failed: ${provision.body}`);
  const account = JSON.parse(provision.body) as { account_id: string; api_keys: { full: { key: string } } };
  const subscription = await api.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: { authorization: `Bearer ${account.api_keys.full.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ url: `https://127.0.0.1:${port}/hooks`, events: '*' }),
  });
  if (subscription.statusCode !== 201) throw new Error(`subscription failed: ${subscription.body}`);
  secret = (JSON.parse(subscription.body) as { data: { secret: string } }).data.secret;
  await api.close();

  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  const types = ['lead_created', 'lead_updated', 'note_created', 'booking_created', 'payment_received'];
  const ids = Array.from({ length: COUNT }, () => randomUUID());
  await pg.query(
    `INSERT INTO platform.outbox (id, account_id, type, payload, actor, occurred_at, relay_attempts)
     SELECT id, $1, ($2::text[])[1 + (ord % $3)::int], jsonb_build_object('n', ord, 'contact_id', NULL), '{"type":null,"id":null,"name":null,"via":null}'::jsonb, now(), 0
       FROM unnest($4::uuid[]) WITH ORDINALITY AS e (id, ord)`,
    [account.account_id, types, types.length, ids],
  );
  say(`${COUNT} events written to platform.outbox; starting the worker`);

  const started = performance.now();
  const worker = await createWorker(config);
  let succeeded = 0;
  const deadline = Date.now() + 5 * 60_000;
  while (Date.now() < deadline) {
    const [{ n }] = (await pg.query(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status = 'succeeded'`)).rows;
    succeeded = n;
    if (succeeded >= COUNT) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const allDoneAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 2000)); // late duplicates, if any
  const stats = (
    await pg.query(
      `SELECT count(*)::int AS deliveries, count(*) FILTER (WHERE attempt > 1)::int AS retried, count(DISTINCT event_id)::int AS events FROM webhooks.deliveries`,
    )
  ).rows[0] as { deliveries: number; retried: number; events: number };
  await worker.close();
  await pg.end();
  server.closeAllConnections();
  server.close();

  const seconds = (Math.min(allDoneAt, lastReceivedAt || allDoneAt) - started) / 1000;
  const received = [...seen.values()].reduce((a, b) => a + b, 0);
  const report = {
    date: new Date().toISOString(),
    events: COUNT,
    deliveries_created: stats.deliveries,
    deliveries_succeeded: succeeded,
    received_requests: received,
    unique_deliveries_received: seen.size,
    lost: COUNT - seen.size,
    duplicates: received - seen.size,
    bad_signatures: badSignatures,
    deliveries_retried: stats.retried,
    seconds_from_worker_start: Number(seconds.toFixed(3)),
    deliveries_per_second: Number((seen.size / seconds).toFixed(1)),
    node: process.version,
    note: 'worker start (Nest boot, relay, fan-out) included; one receiver on loopback answering 200 at once',
  };
  console.log(JSON.stringify(report, null, 2));
  mkdirSync(join(__dirname, '..', '..', 'bench', 'results'), { recursive: true });
  writeFileSync(join(__dirname, '..', '..', 'bench', 'results', `webhooks-${report.date.slice(0, 10)}.json`), `${JSON.stringify(report, null, 2)}\n`);

  // Clean up: database, Redis keys of the prefix, certificate.
  const redis = new IORedis(config.redisUrl, { maxRetriesPerRequest: 1 });
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  await redis.quit();
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const adminClient = new Client({ connectionString: admin.toString() });
  await adminClient.connect();
  await adminClient.query(`DROP DATABASE IF EXISTS "leadflow_bench_webhooks_${suffix}" WITH (FORCE)`);
  await adminClient.end();
  rmSync(certDir, { recursive: true, force: true });
  if (report.lost !== 0 || report.bad_signatures !== 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
