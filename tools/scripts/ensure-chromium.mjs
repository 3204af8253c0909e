#!/usr/bin/env node
// Makes sure the browser the end-to-end tests drive is on this machine (issue 13, item 8): the quote page
// (and any other browser test) runs in Debian's `chromium` through playwright-core, never a downloaded
// build. When /usr/bin/chromium (or CHROMIUM_PATH) is missing and we may use apt-get (root, Debian), it
// installs the `chromium` package; otherwise it says what to install and exits non-zero.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const say = (message) => console.log(`[test] ${message}`);

export function ensureChromium() {
  if (existsSync(path)) return true;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = existsSync('/usr/bin/apt-get');
  if (!root || !apt) {
    console.error(`[test] ${path} is missing: the browser tests need Debian's chromium. Install it with: sudo apt-get install -y chromium`);
    return false;
  }
  say(`${path} is missing: installing Debian's chromium package (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`[test] apt-get ${args.join(' ')} failed (exit ${result.status}); install chromium by hand: apt-get install -y chromium`);
      return false;
    }
  }
  return existsSync(path);
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensureChromium() ? 0 : 1);
