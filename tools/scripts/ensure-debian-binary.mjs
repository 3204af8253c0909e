// Installs a server binary a test suite runs as a private child process (PgBouncer, HAProxy) from Debian's
// package when it is missing, without ever starting the packaged service: during the apt-get install a
// policy-rc.d answers "not allowed" (101) to invoke-rc.d (the default on a machine without systemd), and on
// systemd the unit is then disabled and stopped, so nothing listens on the package's default ports because
// of it. Without root or apt-get it says what to install and returns false.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';

const POLICY = '/usr/sbin/policy-rc.d';
const say = (message) => console.log(`[test] ${message}`);

/**
 * Returns true when `path` exists (now); installs Debian's `pkg` when allowed.
 * @param {{ pkg: string, path: string, service: string, neededBy: string }} binary `neededBy` names the tests
 *   that need it, for the message when it cannot be installed.
 */
export function ensureDebianBinary({ pkg, path, service, neededBy }) {
  if (existsSync(path)) return true;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = existsSync('/usr/bin/apt-get');
  if (!root || !apt) {
    console.error(`[test] ${path} is missing: ${neededBy} need Debian's ${pkg}. Install it with: sudo apt-get install -y ${pkg}`);
    return false;
  }
  say(`${path} is missing: installing Debian's ${pkg} package (apt-get; its service is not started)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const ownPolicy = !existsSync(POLICY);
  if (ownPolicy) {
    writeFileSync(POLICY, `#!/bin/sh\n# Written by tools/scripts/ensure-debian-binary.mjs for the length of one apt-get install of ${pkg}.\nexit 101\n`);
    chmodSync(POLICY, 0o755);
  }
  try {
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', pkg]]) {
      const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
      if (result.status !== 0) {
        console.error(`[test] apt-get ${args.join(' ')} failed (exit ${result.status}); install ${pkg} by hand: apt-get install -y ${pkg}`);
        return false;
      }
    }
  } finally {
    if (ownPolicy) rmSync(POLICY, { force: true });
  }
  if (existsSync('/run/systemd/system')) spawnSync('systemctl', ['disable', '--now', service], { stdio: 'ignore' });
  return existsSync(path);
}
