// Makes sure the HAProxy the topology suite starts is on this machine (apps/api/test/topology): Debian's
// `haproxy` package (2.6 on bookworm), run by the suite as a child process with a private configuration on a
// free port (apps/api/test/topology/support/private-haproxy.ts), never the packaged service (see
// ensure-debian-binary.mjs).
import { ensureDebianBinary } from './ensure-debian-binary.mjs';

/** Returns true when the haproxy binary (`HAPROXY_PATH`, default /usr/sbin/haproxy) is (now) there. */
export function ensureHaproxy() {
  return ensureDebianBinary({ pkg: 'haproxy', path: process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy', service: 'haproxy.service', neededBy: 'the topology suite' });
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensureHaproxy() ? 0 : 1);
