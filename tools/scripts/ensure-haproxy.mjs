#!/usr/bin/env node
// Makes sure the HAProxy the topology suite starts is on this machine (apps/api/test/topology): Debian's
// `haproxy` package (2.6 on bookworm), whose binary the suite runs as a child process with a private
// configuration on a free port (apps/api/test/topology/support/private-haproxy.ts), never the packaged
// service. When /usr/sbin/haproxy (or HAPROXY_PATH) is missing and we may use apt-get (root, Debian), it
// installs the package without letting its service start (a temporary policy-rc.d answering 101 when the
// machine has none; on systemd the unit is then disabled and stopped), so nothing listens on the package's
// default ports because of it. Otherwise it says what to install and exits non-zero.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';

const path = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
const POLICY = '/usr/sbin/policy-rc.d';
const say = (message) => console.log(`[test] ${message}`);

/** Returns true when the haproxy binary is (now) at `path`; installs Debian's package when allowed. */
export function ensureHaproxy() {
  if (existsSync(path)) return true;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = existsSync('/usr/bin/apt-get');
  if (!root || !apt) {
    console.error(`[test] ${path} is missing: the topology suite needs Debian's haproxy. Install it with: sudo apt-get install -y haproxy`);
    return false;
  }
  say(`${path} is missing: installing Debian's haproxy package (apt-get; its service is not started)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // invoke-rc.d asks policy-rc.d before starting a service: 101 = "action not allowed".
  const ownPolicy = !existsSync(POLICY);
  if (ownPolicy) {
    writeFileSync(POLICY, '#!/bin/sh\n# Written by tools/scripts/ensure-haproxy.mjs for the length of one apt-get install.\nexit 101\n');
    chmodSync(POLICY, 0o755);
  }
  try {
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'haproxy']]) {
      const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
      if (result.status !== 0) {
        console.error(`[test] apt-get ${args.join(' ')} failed (exit ${result.status}); install haproxy by hand: apt-get install -y haproxy`);
        return false;
      }
    }
  } finally {
    if (ownPolicy) rmSync(POLICY, { force: true });
  }
  if (existsSync('/run/systemd/system')) spawnSync('systemctl', ['disable', '--now', 'haproxy.service'], { stdio: 'ignore' });
  return existsSync(path);
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensureHaproxy() ? 0 : 1);
