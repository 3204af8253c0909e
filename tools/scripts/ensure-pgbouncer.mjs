#!/usr/bin/env node
// Makes sure the PgBouncer the pooler tests start is on this machine (apps/api/test/pgbouncer.e2e-spec.ts):
// Debian's `pgbouncer` package (1.18 on bookworm), whose binary the tests run as a child process with a
// private configuration on a free port (apps/api/test/support/private-pgbouncer.ts), never the packaged
// service. When /usr/sbin/pgbouncer (or PGBOUNCER_PATH) is missing and we may use apt-get (root, Debian), it
// installs the package without letting its service start (a temporary policy-rc.d answering 101 when the
// machine has none; on systemd the unit is then disabled and stopped), so nothing listens on the default
// port 6432 because of it. Otherwise it says what to install and exits non-zero.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';

const path = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';
const POLICY = '/usr/sbin/policy-rc.d';
const say = (message) => console.log(`[test] ${message}`);

/** Returns true when the pgbouncer binary is (now) at `path`; installs Debian's package when allowed. */
export function ensurePgbouncer() {
  if (existsSync(path)) return true;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = existsSync('/usr/bin/apt-get');
  if (!root || !apt) {
    console.error(`[test] ${path} is missing: the pooler tests need Debian's pgbouncer. Install it with: sudo apt-get install -y pgbouncer`);
    return false;
  }
  say(`${path} is missing: installing Debian's pgbouncer package (apt-get; its service is not started)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // invoke-rc.d asks policy-rc.d before starting a service: 101 = "action not allowed".
  const ownPolicy = !existsSync(POLICY);
  if (ownPolicy) {
    writeFileSync(POLICY, '#!/bin/sh\n# Written by tools/scripts/ensure-pgbouncer.mjs for the length of one apt-get install.\nexit 101\n');
    chmodSync(POLICY, 0o755);
  }
  try {
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'pgbouncer']]) {
      const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
      if (result.status !== 0) {
        console.error(`[test] apt-get ${args.join(' ')} failed (exit ${result.status}); install pgbouncer by hand: apt-get install -y pgbouncer`);
        return false;
      }
    }
  } finally {
    if (ownPolicy) rmSync(POLICY, { force: true });
  }
  if (existsSync('/run/systemd/system')) spawnSync('systemctl', ['disable', '--now', 'pgbouncer.service'], { stdio: 'ignore' });
  return existsSync(path);
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensurePgbouncer() ? 0 : 1);
