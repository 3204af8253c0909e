#!/usr/bin/env node
// `npm test`: make sure Debian's chromium is installed for the browser tests (installed with apt-get when
// missing and allowed, see ensure-chromium.mjs), type-check the whole workspace, lint it (module
// boundaries included), check the OpenAPI documents' fr/en parity, lint them (Spectral and Redocly, offline,
// lint-openapi.mjs; errors fail), then run every unit, integration and
// end-to-end test (root jest.config.js) against real PostgreSQL and Redis, then the topology suite
// (jest.topology.config.js: its own PostgreSQL primary + replica, PgBouncer, Redis Cluster and HAProxy, whose
// Debian packages ensure-pgbouncer.mjs and ensure-haproxy.mjs install when missing). Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureHaproxy } from './ensure-haproxy.mjs';
import { ensurePgbouncer } from './ensure-pgbouncer.mjs';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!ensureChromium() || !ensurePgbouncer() || !ensureHaproxy()) process.exit(1);
run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
run('npx', ['eslint', '.']);
run('node', ['tools/scripts/check-openapi-parity.mjs']);
run('node', ['tools/scripts/lint-openapi.mjs']);
run('npx', ['jest', '--ci', ...process.argv.slice(2)]);
// A run narrowed with arguments (`npm test -- <pattern>`) is about those tests: the topology suite is left out.
if (process.argv.length <= 2) run('npx', ['jest', '--ci', '--config', 'jest.topology.config.js']);
