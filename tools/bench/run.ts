import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { join, relative } from 'node:path';
import { BASELINE_DATABASE, BenchConfig, readBenchConfig } from './config';
import { startBaselineThread, RunningBaseline } from './baseline-worker';
import { errorCode, failedScenario, LoadSettings, runScenario, ScenarioResult, send } from './load-runner';
import { BenchReport, formatTable, localIsoDate, medianRound, withRatios, writeReport } from './report';
import { settle } from './settle';
import {
  apiReadScenarios,
  apiScenarios,
  baselineCaptureBody,
  baselineReadScenarios,
  baselineWriteScenarios,
  contactCreateBody,
  PersonFactory,
  Scenario,
} from './scenarios';

/**
 * `npm run bench` (issue 3, Benchmark harness; ARCHITECTURE.md › Performance): drives the RUNNING api
 * (it starts nothing itself) and, in the same run, a bare Fastify + pg baseline of its own, with
 * autocannon; writes `bench/results/<YYYY-MM-DD>.json` and prints the table. See tools/bench/README.md.
 */

const ROOT = join(__dirname, '..', '..');
const PAUSE_BETWEEN_SCENARIOS_MS = 1_000;
/** Below this hourly quota the per-key limit is likely to refuse part of a run. */
const COMFORTABLE_PER_HOUR = 200_000;
/** The scopes of a key the harness creates: what the scenarios need, nothing more (`/v1/me` needs none). */
const BENCH_SCOPES = ['contacts:read', 'contacts:write', 'leads:capture'];

const say = (message: string) => console.log(`[bench] ${message}`);

interface BenchKey {
  key: string;
  source: BenchReport['settings']['api_key']['source'];
  /** Set when the harness created the key: revoked at the end. */
  createdId: string | null;
}

class BenchAbort extends Error {}

async function main(): Promise<void> {
  const config = readBenchConfig(process.env, ROOT);
  const startedAt = new Date();
  const runTag = `${startedAt.getTime().toString(36)}${randomBytes(2).toString('hex')}`;
  say(`api ${config.baseUrl}, ${config.durationSeconds} s per scenario, ${config.connections} connections`);

  const key = await obtainKey(config, runTag);
  const cleanups: (() => Promise<void>)[] = [];
  if (key.createdId !== null) cleanups.push(() => revokeKey(config, key.createdId as string));
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => say(`clean-up failed: ${String(error)}`));
  };
  process.once('SIGINT', () => {
    say('interrupted: cleaning up');
    void cleanUp().finally(() => process.exit(130));
  });

  try {
    const auth = { authorization: `Bearer ${key.key}` };
    const me = await preflight(config, auth);
    const people = new PersonFactory(runTag);
    const apiSettings: LoadSettings = { baseUrl: config.baseUrl, durationSeconds: config.durationSeconds, connections: config.connections, headers: auth };
    const selected = (name: string) => config.only.length === 0 || config.only.includes(name);
    let baseline: RunningBaseline | null = null;
    const rounds: ScenarioResult[][] = [];
    for (let round = 1; round <= config.rounds; round++) {
      if (config.rounds > 1) say(`round ${round} of ${config.rounds}`);
      const results: ScenarioResult[] = [];

      // 1. The api: writes, then the reads (of a contact created just before).
      for (const scenario of apiScenarios(people, config.forwardedFor).filter((s) => selected(s.name))) results.push(await measure(scenario, apiSettings));
      const readTarget = selected('contact_read') ? await createApiContact(config.baseUrl, auth, people) : null;
      for (const scenario of apiReadScenarios(readTarget?.id ?? null).filter((s) => selected(s.name))) {
        if (scenario.name === 'contact_read' && !readTarget?.id) {
          results.push(failedScenario(scenario, readTarget?.reason ?? 'no contact to read'));
          say(`${scenario.name}: skipped (${readTarget?.reason})`);
          continue;
        }
        results.push(await measure(scenario, apiSettings));
      }

      // 2. The bare baseline, on its own thread of this process (started once): every baseline scenario,
      // or (BENCH_ONLY) those named and those the selected api scenarios compare to.
      const compared = new Set([...config.only, ...results.map((result) => result.baseline)]);
      const inBaseline = (name: string) => config.only.length === 0 || compared.has(name);
      const baselineWrites = baselineWriteScenarios(people).filter((s) => inBaseline(s.name));
      const baselineReads = ['baseline_read', 'baseline_list', 'baseline_me'].filter(inBaseline);
      if (baselineWrites.length + baselineReads.length > 0) {
        if (!baseline) {
          say(`baseline: bare Fastify + pg + one Redis quota call per request, on a worker thread, database ${BASELINE_DATABASE}`);
          const started: RunningBaseline = await startBaselineThread({ databaseUrl: config.baselineDatabaseUrl, poolSize: config.baselinePoolSize, redisUrl: config.baselineRedisUrl });
          baseline = started;
          cleanups.push(() => started.stop());
        }
        const settings: LoadSettings = { baseUrl: baseline.baseUrl, durationSeconds: config.durationSeconds, connections: config.connections, headers: {} };
        for (const scenario of baselineWrites) results.push(await measure(scenario, settings));
        if (baselineReads.length > 0) {
          const created = await send(baseline.baseUrl, 'POST', '/capture', {}, baselineCaptureBody(people.next()));
          const contactId = (created.body as { contact_id?: string } | null)?.contact_id;
          if (created.status !== 200 || !contactId) throw new Error(`baseline POST /capture answered ${created.status} ${JSON.stringify(created.body)}`);
          for (const scenario of baselineReadScenarios(contactId).filter((s) => inBaseline(s.name))) results.push(await measure(scenario, settings));
        }
      }
      rounds.push(withRatios(results));
      if (config.rounds > 1) {
        console.log('');
        console.log(formatTable(rounds[rounds.length - 1]));
        console.log('');
      }
    }

    const scenarios = medianRound(rounds);
    const finishedAt = new Date();
    const report: BenchReport = {
      date: localIsoDate(startedAt),
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      settings: {
        base_url: config.baseUrl,
        duration_seconds: config.durationSeconds,
        rounds: config.rounds,
        connections: config.connections,
        pipelining: 1,
        api_key: { source: key.source, prefix: me.prefix, per_hour: me.perHour },
        baseline: { database: BASELINE_DATABASE, pool_size: config.baselinePoolSize, runs_on: 'worker thread of the harness process', redis_quota_call_per_request: true },
      },
      environment: {
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model ?? null,
        autocannon: (require('autocannon/package.json') as { version: string }).version,
        git_commit: gitCommit(),
      },
      scenarios,
      rounds,
      notes: notesOn(scenarios, me.perHour),
    };
    const path = await writeReport(config.resultsDir, report);
    console.log('');
    console.log(formatTable(scenarios));
    console.log('');
    for (const note of report.notes) console.log(`note: ${note}`);
    const shown = relative(process.cwd(), path);
    say(`results written to ${shown.startsWith('..') ? path : shown}`);
  } finally {
    await cleanUp();
  }
}

/** The api's database and Redis prefix, to wait for the worker between scenarios (see settle.ts). */
const apiState = {
  databaseUrl: process.env.BENCH_API_DATABASE_URL ?? process.env.DATABASE_URL ?? null,
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0',
  redisPrefix: process.env.BENCH_API_REDIS_PREFIX ?? process.env.REDIS_PREFIX ?? null,
};

async function measure(scenario: Scenario, settings: LoadSettings): Promise<ScenarioResult> {
  if (scenario.target === 'api') {
    const waited = await settle(apiState.databaseUrl, apiState.redisUrl, apiState.redisPrefix);
    if (waited !== null && waited > 0.5) say(`waited ${waited} s for the worker to drain the previous scenario's events`);
  }
  await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_SCENARIOS_MS));
  say(`${scenario.name}: ${scenario.method} ${scenario.path} ...`);
  const result = await runScenario(scenario, settings);
  if (result.status === 'skipped') {
    say(`${scenario.name}: skipped (${result.skip_reason})`);
  } else {
    say(
      `${scenario.name}: ${result.requests_per_second} req/s, p50 ${result.latency_ms?.p50} ms, p99 ${result.latency_ms?.p99} ms, ` +
        `non-2xx ${result.non_2xx}${result.errors ? `, errors ${result.errors}` : ''}`,
    );
  }
  return result;
}

/**
 * The key to drive the api with: with ADMIN_TOKEN and BENCH_ACCOUNT_ID, a key created now through the
 * operator API (`per_hour` BENCH_KEY_PER_HOUR, revoked at the end); otherwise BENCH_API_KEY.
 */
async function obtainKey(config: BenchConfig, runTag: string): Promise<BenchKey> {
  if (config.adminToken !== null && config.accountId !== null) {
    const path = `/admin/v1/accounts/${encodeURIComponent(config.accountId)}/api-keys`;
    const answer = await call(config.baseUrl, 'POST', path, { authorization: `Bearer ${config.adminToken}` }, JSON.stringify({
      name: `bench ${runTag}`,
      scopes: BENCH_SCOPES,
      per_hour: config.keyPerHour,
    }));
    const issued = answer.body as { id?: string; key?: string } | null;
    if (answer.status !== 201 || !issued?.id || !issued.key) {
      throw new BenchAbort(`creating the bench key: POST ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    say(`created API key "bench ${runTag}" (per_hour ${config.keyPerHour}); it is revoked at the end`);
    return { key: issued.key, source: 'created_by_harness', createdId: issued.id };
  }
  if (config.apiKey !== null) return { key: config.apiKey, source: 'BENCH_API_KEY', createdId: null };
  throw new BenchAbort('no API key: set BENCH_API_KEY (e.g. the demo `full` key printed by `npm start`), or ADMIN_TOKEN and BENCH_ACCOUNT_ID');
}

async function revokeKey(config: BenchConfig, keyId: string): Promise<void> {
  const path = `/admin/v1/accounts/${encodeURIComponent(config.accountId ?? '')}/api-keys/${keyId}/revoke`;
  const answer = await call(config.baseUrl, 'POST', path, { authorization: `Bearer ${config.adminToken ?? ''}` }, '{}');
  if (answer.status !== 200) say(`revoking the bench key: POST ${path} answered ${answer.status}`);
}

/** `GET /v1/me`: the key must authenticate; its hourly quota goes into the report. */
async function preflight(config: BenchConfig, auth: Record<string, string>): Promise<{ prefix: string | null; perHour: number | null }> {
  const answer = await call(config.baseUrl, 'GET', '/v1/me', auth, null);
  if (answer.status !== 200) {
    throw new BenchAbort(`GET /v1/me answered ${answer.status} ${errorCode(answer.body) ?? ''}: the key must authenticate and have quota left`);
  }
  const data = (answer.body as { data?: { key_prefix?: string; rate_limits?: { per_hour?: number } } }).data;
  const perHour = data?.rate_limits?.per_hour ?? null;
  say(`key ${data?.key_prefix ?? '?'}: per_hour ${perHour ?? 'unknown'}`);
  if (perHour !== null && perHour < COMFORTABLE_PER_HOUR) {
    say(`warning: per_hour ${perHour} is low for a benchmark; expect 429 rate_limit_exceeded (see tools/bench/README.md)`);
  }
  return { prefix: data?.key_prefix ?? null, perHour };
}

/** Creates the contact the read scenario reads. */
async function createApiContact(baseUrl: string, auth: Record<string, string>, people: PersonFactory): Promise<{ id: string | null; reason: string }> {
  const answer = await call(baseUrl, 'POST', '/v1/contacts', auth, contactCreateBody(people.next()));
  const id = (answer.body as { data?: { id?: string } } | null)?.data?.id ?? null;
  if (answer.status === 201 && id) return { id, reason: '' };
  if (answer.status === 404) return { id: null, reason: 'route missing (POST /v1/contacts)' };
  return { id: null, reason: `no contact to read: POST /v1/contacts answered ${answer.status} ${errorCode(answer.body) ?? ''}`.trim() };
}

/** `send`, with a connection failure turned into a clear message. */
async function call(baseUrl: string, method: string, path: string, headers: Record<string, string>, body: string | null) {
  try {
    return await send(baseUrl, method, path, headers, body);
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new BenchAbort(`${method} ${baseUrl}${path} failed (${cause}): is the api running? (npm start, or BENCH_BASE_URL)`);
  }
}

function notesOn(results: ScenarioResult[], perHour: number | null): string[] {
  const notes: string[] = [];
  for (const result of results) {
    if (result.status === 'skipped') {
      notes.push(`${result.name} skipped: ${result.skip_reason}.`);
      continue;
    }
    const refused = result.status_codes?.['429'] ?? 0;
    if (refused > 0) {
      const why = result.path.startsWith('/v1/leads/capture')
        ? 'per-IP limit of lead capture, 100 per minute, or key quota'
        : `key quota, per_hour ${perHour ?? 'unknown'}`;
      notes.push(
        `${result.name}: ${refused} of ${result.responses} responses were 429 (${why}); req/s and latency include those refusals, ` +
          `${result.ok_per_second} 2xx/s.`,
      );
    }
    const otherFailures = (result.non_2xx ?? 0) - refused;
    if (otherFailures > 0) notes.push(`${result.name}: ${otherFailures} other non-2xx responses (see status_codes).`);
  }
  return notes;
}

function gitCommit(): string | null {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim().length > 0;
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return null;
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof BenchAbort) console.error(`[bench] ${error.message}`);
    else console.error('[bench] failed:', error);
    process.exit(1);
  },
);
