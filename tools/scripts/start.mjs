#!/usr/bin/env node
// `npm start` (operator-api › Runtime contract): prepares the database (created when missing, pending
// migrations run, demo account provisioned and its keys printed once on a database without accounts
// unless SEED_DEMO=false), then runs the api and the worker as two child processes until interrupted.
//
// Ctrl-C / SIGTERM is forwarded to both; each shuts down gracefully (the api finishes in-flight
// requests, the worker stops the outbox relay and lets active jobs finish) and this process exits 0
// once both have stopped. If one of them dies on its own, the other is stopped and the exit is
// non-zero. A second Ctrl-C, or children still running STOP_TIMEOUT_MS after the first, are killed.
//
// TypeScript runs through @swc-node/register with SWCRC=true: the root .swcrc (legacy decorators,
// decorator metadata for Nest DI, no define semantics for class fields), the settings Jest uses.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STOP_TIMEOUT_MS = Number(process.env.STOP_TIMEOUT_MS ?? 30_000);
const env = { ...process.env, SWCRC: 'true' };

const say = (message) => console.log(`[start] ${message}`);

/** Runs a TypeScript entry point in a child node process (with an IPC channel: children stop when this process is gone). */
function runTs(name, entry) {
  const child = spawn(process.execPath, ['--enable-source-maps', '-r', '@swc-node/register', entry], {
    cwd: root,
    env: { ...env, LEADFLOW_SUPERVISED: '1' },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  child.label = name;
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return child;
}

const describeExit = ({ code, signal }) => (signal ? `signal ${signal}` : `code ${code}`);

let stopping = null; // the signal that asked us to stop, or 'failure'
const running = new Set();

function stopAll(signal) {
  for (const child of running) child.kill(signal);
}

function onSignal(signal) {
  if (stopping) {
    say(`${signal} again: killing ${[...running].map((child) => child.label).join(' and ') || 'nothing'}`);
    stopAll('SIGKILL');
    return;
  }
  stopping = signal;
  if (running.size > 0) say(`${signal} received: stopping ${[...running].map((child) => child.label).join(' and ')}`);
  stopAll(signal);
  setTimeout(() => {
    if (running.size === 0) return;
    say(`still running after ${STOP_TIMEOUT_MS} ms: killing ${[...running].map((child) => child.label).join(' and ')}`);
    stopAll('SIGKILL');
  }, STOP_TIMEOUT_MS).unref();
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
const prepare = runTs('prepare', 'tools/scripts/prepare.ts');
running.add(prepare);
const prepared = await prepare.exited;
running.delete(prepare);
if (stopping) process.exit(130);
if (prepared.code !== 0) {
  say(`database preparation failed (${describeExit(prepared)})`);
  process.exit(prepared.code || 1);
}

// 2. The two apps.
const apps = [runTs('api', 'apps/api/src/main.ts'), runTs('worker', 'apps/worker/src/main.ts')];
let failed = false;
for (const child of apps) {
  running.add(child);
  child.exited.then((result) => {
    running.delete(child);
    const requested = stopping && stopping !== 'failure';
    const clean = requested && (result.code === 0 || result.signal === stopping || result.signal === 'SIGTERM');
    if (!clean) failed = true;
    say(`${child.label} ${requested ? 'stopped' : 'exited'} (${describeExit(result)})`);
    if (!stopping) {
      stopping = 'failure';
      if (running.size > 0) say(`${child.label} stopped unexpectedly: stopping ${[...running].map((other) => other.label).join(' and ')}`);
      stopAll('SIGTERM');
      setTimeout(() => stopAll('SIGKILL'), STOP_TIMEOUT_MS).unref();
    }
  });
}
say(`api (pid ${apps[0].pid}) and worker (pid ${apps[1].pid}) starting; Ctrl-C stops both`);

await Promise.all(apps.map((child) => child.exited));
// Let the exit handlers above run before deciding.
await new Promise((resolve) => setImmediate(resolve));
say(failed ? 'stopped with errors' : 'both stopped cleanly');
process.exit(failed ? 1 : 0);
