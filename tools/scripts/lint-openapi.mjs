#!/usr/bin/env node
/**
 * Lints the four OpenAPI descriptions (apps/api/openapi/{openapi,operator}.{fr,en}.yaml) with Spectral
 * (`.spectral.yaml`: the bundled `spectral:oas` ruleset) and Redocly CLI (`redocly.yaml`: the built-in
 * `recommended` ruleset), both in parallel, offline (rulesets ship in the packages; Redocly's telemetry
 * and update check are off). Exits 1 when either reports an error; warnings are printed and counted.
 *
 *   node tools/scripts/lint-openapi.mjs
 *
 * Part of `npm test` (tools/scripts/test.mjs), before Jest.
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FILES = ['openapi.fr.yaml', 'openapi.en.yaml', 'operator.fr.yaml', 'operator.en.yaml'].map((file) => `apps/api/openapi/${file}`);
const BIN = resolve(ROOT, 'node_modules', '.bin');

/** Runs a command in the repository root, collecting its output. */
function run(name, command, args, env = {}) {
  return new Promise((done) => {
    const child = spawn(resolve(BIN, command), args, { cwd: ROOT, env: { ...process.env, ...env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => done({ name, status: 1, output: `${output}${error.message}\n` }));
    child.on('close', (status) => done({ name, status: status ?? 1, output }));
  });
}

const started = Date.now();
const [spectral, redocly] = await Promise.all([
  run('Spectral', 'spectral', ['lint', '--ruleset', '.spectral.yaml', '--fail-severity', 'error', '--format', 'stylish', ...FILES]),
  run('Redocly', 'redocly', ['lint', '--config', 'redocly.yaml', '--format', 'summary', ...FILES], {
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
  }),
]);

/** Counts `N errors` / `N warnings` in a tool's summary line. */
const count = (output, word) => {
  const spectralLine = /✖ \d+ problems? \((\d+) errors?, (\d+) warnings?/.exec(output);
  if (spectralLine) return Number(word === 'error' ? spectralLine[1] : spectralLine[2]);
  return [...output.matchAll(new RegExp(`^${word} [\\w-]+: (\\d+)$`, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0);
};

let failed = false;
for (const result of [spectral, redocly]) {
  const errors = count(result.output, 'error');
  const warnings = count(result.output, 'warning');
  if (result.status !== 0 || errors > 0) {
    failed = true;
    process.stdout.write(result.output);
    console.error(`${result.name}: ${errors} error(s), ${warnings} warning(s) (exit ${result.status})`);
  } else {
    console.log(`${result.name}: 0 errors, ${warnings} warning(s) over ${FILES.length} descriptions`);
  }
}
console.log(`OpenAPI lint ${failed ? 'FAILED' : 'OK'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
