#!/usr/bin/env node
// `npm test`: type-check the whole workspace, lint it (module boundaries included), then run every unit, integration and end-to-end test
// (root jest.config.js) against real PostgreSQL and Redis. Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';

const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
run('npx', ['eslint', '.']);
run('node', ['tools/scripts/check-openapi-parity.mjs']);
run('npx', ['jest', '--ci', ...process.argv.slice(2)]);
