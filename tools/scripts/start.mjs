#!/usr/bin/env node
// `npm start` (operator-api › Runtime contract): prepares the database (created when missing, pending
// migrations run, demo account provisioned and its keys printed once on a database without accounts
// unless SEED_DEMO=false), then supervises the apps until a stop request:
//
// - api: API_PROCESSES processes (default: the number of CPU cores, os.availableParallelism()) run
//   apps/api/src/main.ts as a Node `cluster`: this process is the cluster primary, owns the listening
//   socket on HOST:PORT and hands each new connection to the api processes in turn (round-robin).
// - worker: one process running apps/worker/src/main.ts, at a lower CPU priority (WORKER_NICE, default 10).
// Every process writes its logs to this process's stdout/stderr (inherited), at LOG_LEVEL, `warn` unless
// set (the ~150 info lines of a boot would otherwise bury what follows).
//
// Once every app process is ready (each api process listening, the worker's `leadflow:ready` message),
// the last lines printed are the closing block of tools/scripts/ready-banner.mjs: where the service
// answers, the demo account's API keys when prepare.ts just created them (it sends them here over IPC
// instead of printing them among the boot lines), a "try it" block and where to read how to make a new
// key. Should the apps not all be ready after READY_TIMEOUT_MS (ms, default 120000), or a stop be
// requested first, the block is printed then, so the keys, shown only once, are never lost.
//
// Self-recovery: a process that dies on its own (crash, OOM kill, SIGKILL…) is restarted in its
// slot while the others keep serving. Each slot (api#1…api#N, worker) backs off exponentially:
// 1 s, 2 s, 4 s, … capped at 30 s between a death and the restart; the delay resets to 1 s once the
// process had stayed up 60 s (tools/scripts/restart-backoff.mjs). Every death and restart is logged:
//   [start] worker (pid 4242) exited (signal SIGKILL) after 3.1 s; restarting in 1 s (restart 1 in a row)
//   [start] worker started (pid 4300)
//
// Stop: only a signal stops everything. Ctrl-C / SIGTERM (or the loss of our parent process) is
// forwarded to every process and cancels pending restarts; each shuts down gracefully (an api process
// stops taking connections and finishes its in-flight requests, the worker stops the outbox relay and
// lets active jobs finish) and this process exits 0 once all have stopped (1 if one failed to stop
// cleanly). A second Ctrl-C, or processes still running STOP_TIMEOUT_MS (ms, default 30000) after
// the first, are killed (SIGKILL). If this process itself is killed, the api processes exit on the
// lost cluster channel and the worker shuts down gracefully on it.
//
// TypeScript runs through @swc-node/register with SWCRC=true: the root .swcrc (legacy decorators,
// decorator metadata for Nest DI, no define semantics for class fields), the settings Jest uses.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import cluster from 'node:cluster';
import { availableParallelism, setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveClusterMetrics } from './cluster-metrics.mjs';
import { readyBanner } from './ready-banner.mjs';
import { createRestartBackoff } from './restart-backoff.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STOP_TIMEOUT_MS = Number(process.env.STOP_TIMEOUT_MS ?? 30_000);
// --max-semi-space-size=64 (MB): V8's young generation four times its default, so the short-lived objects of
// a request die in fewer scavenges and fewer are promoted: +5 to +20 % req/s on capture, reads and /v1/me in
// A/B runs on the 2-core machine (issue 11), for up to ~100 MB more RSS per process.
const TS_ARGS = ['--enable-source-maps', '--max-semi-space-size=64', '-r', '@swc-node/register', ...(process.env.LEADFLOW_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.LEADFLOW_PROFILE_DIR] : [])];
const READY_TIMEOUT_MS = Number(process.env.READY_TIMEOUT_MS ?? 120_000);
const LOG_LEVEL = process.env.LOG_LEVEL || 'warn';
const childEnv = { SWCRC: 'true', LEADFLOW_SUPERVISED: '1', LOG_LEVEL };

const say = (message) => console.log(`[start] ${message}`);
/**
 * Exit code of a process stopped by an invalid environment variable (ConfigError.EXIT_CODE, sysexits
 * EX_CONFIG): restarting cannot help, so `npm start` stops everything and exits with it.
 */
const CONFIG_ERROR_EXIT = 78;

const API_PROCESSES = process.env.API_PROCESSES ? Number(process.env.API_PROCESSES) : availableParallelism();
if (!Number.isInteger(API_PROCESSES) || API_PROCESSES < 1) {
  say(`API_PROCESSES must be a positive integer (got ${JSON.stringify(process.env.API_PROCESSES)})`);
  process.exit(1);
}
// Every process is told the count (AppConfig.apiProcesses): while Redis is down each api process admits its
// share of every limit (limit / API_PROCESSES, rounded down), the worker its share of the metrics token's.
childEnv.API_PROCESSES = String(API_PROCESSES);

/**
 * CPU priority of the worker, as a nice value (0 = the api's, 19 = lowest; default 10). The api
 * acknowledges a request once its rows and outbox events are committed; what the worker does with
 * the events (relay, webhooks, automations, SMS hand-off) follows. On a machine the two share, a
 * burst of requests therefore goes to the api first and the worker catches up from the outbox after
 * it; under a sustained load the worker still gets every cycle the api leaves (the soak of
 * `npm run bench:soak` shows the backlog flat at 80 % of the sustainable rate). 0 shares equally.
 */
const WORKER_NICE = process.env.WORKER_NICE ? Number(process.env.WORKER_NICE) : 10;
if (!Number.isInteger(WORKER_NICE) || WORKER_NICE < 0 || WORKER_NICE > 19) {
  say(`WORKER_NICE must be an integer from 0 to 19 (got ${JSON.stringify(process.env.WORKER_NICE)})`);
  process.exit(1);
}

/** coreutils' nice(1): runs a command at a lower priority (same pid: it execs the command). */
const NICE_BINARY = '/usr/bin/nice';

/** Lowers the priority of the process `pid` to `nice` (never raises it: that needs privileges). */
function lowerPriority(pid, nice) {
  if (nice === 0 || pid === undefined) return;
  try {
    setPriority(pid, nice);
  } catch (error) {
    say(`could not lower the worker's priority to nice ${nice}: ${error.message}`);
  }
}

/**
 * One supervised process: `pid`, `kill(signal)`, `exited` (resolves with { code, signal }), `ready`
 * (resolves on its `{ type: 'leadflow:ready' }` message) and `messages` (every IPC message it sent, in
 * order, complete once `exited` resolved). Children keep an IPC channel to this process, so they stop
 * when it is gone.
 */
function spawnTs(entry, nice = 0) {
  // Started through nice(1) when it exists, so every thread of the process (V8's and libuv's included)
  // runs at that priority from its first instruction; else lowered once started (main thread and later ones).
  const niced = nice > 0 && existsSync(NICE_BINARY);
  const [command, args] = niced ? [NICE_BINARY, ['-n', String(nice), process.execPath, ...TS_ARGS, entry]] : [process.execPath, [...TS_ARGS, entry]];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...childEnv },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  if (nice > 0 && !niced) lowerPriority(child.pid, nice);
  const messages = [];
  let markReady;
  const ready = new Promise((resolve) => (markReady = resolve));
  child.on('message', (message) => {
    messages.push(message);
    if (message?.type === 'leadflow:ready') markReady();
  });
  // Messages arrive before the channel closes ('disconnect'), which a process's exit always causes.
  const disconnected = new Promise((resolve) => (child.connected ? child.once('disconnect', resolve) : resolve()));
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const exited = Promise.all([exit, disconnected]).then(([result]) => result);
  return { pid: child.pid, kill: (signal) => child.kill(signal), exited, ready, messages };
}

/** An api process: a cluster worker running apps/api/src/main.ts (listen() goes through this primary); ready once listening. */
function forkApi() {
  const worker = cluster.fork(childEnv);
  const exited = new Promise((resolve) => worker.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve) => worker.once('listening', () => resolve()));
  // Signal the process directly (not worker.kill(), which disconnects first): Nest's shutdown hooks
  // then close Fastify gracefully.
  return { pid: worker.process.pid, kill: (signal) => worker.process.kill(signal), exited, ready };
}

const describeExit = ({ code, signal }) => (signal ? `signal ${signal}` : `code ${code}`);
const seconds = (ms) => `${Math.round(ms / 100) / 10} s`;

let stopping = null; // the signal that asked us to stop
let failed = false; // a process did not stop cleanly after the stop request
let exitCode = null; // set when a process stopped on an invalid configuration
/** Live processes: label → { pid, kill, exited }. */
const running = new Map();
/** Slots waiting for their restart: label → timer. */
const pendingRestarts = new Map();
let allStopped; // resolves once stopping and nothing runs or waits for a restart
const done = new Promise((resolve) => (allStopped = resolve));

const labels = () => [...running.keys()].join(', ') || 'nothing';

/** App slots (api#1…, worker) and those whose current process reported ready. */
const expected = new Set();
const readySlots = new Set();
let announced = false;
let preparation = null; // set once prepare.ts has exited

/**
 * Prints the closing block (ready-banner.mjs) once: when every app slot is ready, else at the ready
 * timeout, or on a stop request when demo keys were just made (so they reach the screen whatever happens).
 */
function announce(reason = 'ready') {
  if (announced || (expected.size === 0 && !preparation)) return;
  if (reason === 'stop' && preparation?.seeding !== 'provisioned') return;
  announced = true;
  const baseUrl = preparation?.baseUrl ?? (process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
  const notReady = expected.size === 0 ? ['api', 'worker'] : [...expected].filter((slot) => !readySlots.has(slot));
  console.log(readyBanner({ baseUrl, prepared: preparation, apiProcesses: API_PROCESSES, notReady, logLevel: LOG_LEVEL }).join('\n'));
}

function stopAll(signal) {
  for (const proc of running.values()) proc.kill(signal);
}

function checkDone() {
  if (stopping && running.size === 0 && pendingRestarts.size === 0) allStopped();
}

function onSignal(signal) {
  if (!stopping) announce('stop'); // a stop before every app was ready: new keys are still printed once
  if (stopping) {
    say(`${signal} again: killing ${labels()}`);
    stopAll('SIGKILL');
    return;
  }
  stopping = signal;
  for (const timer of pendingRestarts.values()) clearTimeout(timer);
  pendingRestarts.clear();
  if (running.size > 0) say(`${signal} received: stopping ${labels()}`);
  stopAll(signal);
  setTimeout(() => {
    if (running.size === 0) return;
    say(`still running after ${STOP_TIMEOUT_MS} ms: killing ${labels()}`);
    stopAll('SIGKILL');
  }, STOP_TIMEOUT_MS).unref();
  checkDone();
}

process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));

// `kill <npm pid>` (or `docker stop` on npm) reaches npm's `sh -c`, which does not pass it on: treat
// the loss of our parent process as a SIGTERM, so the apps never outlive `npm start`.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent && !stopping) {
    say('parent process gone');
    onSignal('SIGTERM');
  }
}, 500).unref();

// 1. Database: create, migrate, seed the demo account.
const prepare = spawnTs('tools/scripts/prepare.ts');
running.set('prepare', prepare);
const prepared = await prepare.exited;
running.delete('prepare');
// What prepare.ts reported (`leadflow:prepared`: base URL, seeding outcome, the demo keys), or null.
preparation = prepare.messages.find((message) => message?.type === 'leadflow:prepared') ?? null;
if (stopping) {
  announce('stop');
  process.exit(130);
}
if (prepared.code === CONFIG_ERROR_EXIT) process.exit(CONFIG_ERROR_EXIT); // prepare.ts printed the bad variables, one line each
if (prepared.code !== 0) {
  say(`database preparation failed (${describeExit(prepared)})`);
  process.exit(prepared.code || 1);
}

// 2. The apps, each in a slot that restarts it with backoff until a stop request.
cluster.setupPrimary({ exec: join(root, 'apps/api/src/main.ts'), execArgv: TS_ARGS, cwd: root });
// GET /metrics on any api process answers the sum over all of them (tools/scripts/cluster-metrics.mjs).
serveClusterMetrics(cluster);

/**
 * Runs `start()` in the slot `label` and restarts it whenever it dies without a stop request, after
 * the slot's backoff delay (restart-backoff.mjs).
 */
function supervise(label, start) {
  const backoff = createRestartBackoff();
  expected.add(label);
  const launch = () => {
    pendingRestarts.delete(label);
    const proc = start();
    const startedAt = Date.now();
    running.set(label, proc);
    say(`${label} started (pid ${proc.pid})`);
    proc.ready.then(() => {
      if (running.get(label) !== proc) return;
      // A restarted process says when it is back (the first start has the closing block).
      if (announced) say(`${label} (pid ${proc.pid}) ready after ${seconds(Date.now() - startedAt)}`);
      readySlots.add(label);
      if ([...expected].every((slot) => readySlots.has(slot))) announce();
    });
    proc.exited.then((result) => {
      running.delete(label);
      if (stopping) {
        const clean = result.code === 0 || result.signal === stopping || result.signal === 'SIGTERM' || result.signal === 'SIGINT';
        if (!clean) failed = true;
        say(`${label} (pid ${proc.pid}) stopped (${describeExit(result)})`);
        checkDone();
        return;
      }
      if (result.code === CONFIG_ERROR_EXIT) {
        say(`${label} (pid ${proc.pid}) stopped on an invalid configuration; stopping everything`);
        failed = true;
        exitCode = CONFIG_ERROR_EXIT;
        onSignal('SIGTERM');
        return;
      }
      const uptime = Date.now() - startedAt;
      const { delayMs, inARow } = backoff.next(uptime);
      say(`${label} (pid ${proc.pid}) exited (${describeExit(result)}) after ${seconds(uptime)}; restarting in ${seconds(delayMs)} (restart ${inARow} in a row)`);
      pendingRestarts.set(label, setTimeout(launch, delayMs));
    });
  };
  launch();
}

for (let i = 1; i <= API_PROCESSES; i++) supervise(`api#${i}`, forkApi);
supervise('worker', () => spawnTs('apps/worker/src/main.ts', WORKER_NICE));
say(`${API_PROCESSES} api process(es) sharing port ${process.env.PORT ?? 3000} and 1 worker starting; Ctrl-C stops them all`);
setTimeout(() => announce('timeout'), READY_TIMEOUT_MS).unref();

await done;
// Let the exit handlers above run before deciding.
await new Promise((resolve) => setImmediate(resolve));
say(failed ? 'stopped with errors' : 'all processes stopped cleanly');
process.exit(exitCode ?? (failed ? 1 : 0));
