// Makes sure the PgBouncer the pooler tests start is on this machine (apps/api/test/pgbouncer.e2e-spec.ts, the
// topology suite): Debian's `pgbouncer` package (1.18 on bookworm), run by the tests as a child process with a
// private configuration on a free port (apps/api/test/support/private-pgbouncer.ts), never the packaged
// service (see ensure-debian-binary.mjs).
import { ensureDebianBinary } from './ensure-debian-binary.mjs';

/** Returns true when the pgbouncer binary (`PGBOUNCER_PATH`, default /usr/sbin/pgbouncer) is (now) there. */
export function ensurePgbouncer() {
  return ensureDebianBinary({ pkg: 'pgbouncer', path: process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer', service: 'pgbouncer.service', neededBy: 'the pooler tests' });
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensurePgbouncer() ? 0 : 1);
