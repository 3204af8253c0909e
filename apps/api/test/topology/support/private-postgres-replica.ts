import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { postgresBinDir, PrivatePostgres } from '../../faults/support/private-postgres';

/** uid and gid of the `postgres` OS user when this process is root (the server refuses root), else null. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Runs one statement on `url` with a short-lived client of its own (application_name `topology-suite`). */
export async function runSql<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000, application_name: 'topology-suite' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A hot-standby streaming replica of a {@link PrivatePostgres} primary: `pg_basebackup -R` (which writes
 * `primary_conninfo` and `standby.signal`) into a temp directory, then `pg_ctl start` on its own port
 * (127.0.0.1 only, Unix socket in its directory). The primary's default pg_hba.conf of `initdb
 * --auth=trust` already admits replication connections from 127.0.0.1. Run as the `postgres` OS user when
 * the test runs as root; never touches the machine's shared server.
 */
export class PrivatePostgresReplica {
  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly bin: string,
    private readonly user: { uid: number; gid: number } | null,
  ) {}

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  get logFile(): string {
    return join(this.dir, 'server.log');
  }

  /** `postgres://postgres@127.0.0.1:<port>/<database>`. */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Base backup of `primary`, started as a streaming standby on `port`; resolves once it accepts read-only connections. */
  static async start(primary: PrivatePostgres, port: number): Promise<PrivatePostgresReplica> {
    const dir = mkdtempSync(join(tmpdir(), 'leadflow-topology-replica-'));
    const user = serverUser();
    if (user) chownSync(dir, user.uid, user.gid);
    const replica = new PrivatePostgresReplica(port, dir, postgresBinDir(), user);
    replica.run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', replica.dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    // The primary's settings came with the backup; the later lines win.
    appendFileSync(
      join(replica.dataDir, 'postgresql.conf'),
      ['', '# leadflow topology suite: the replica', `port = ${port}`, `unix_socket_directories = '${dir}'`, 'hot_standby = on', 'hot_standby_feedback = on', ''].join('\n'),
    );
    replica.run('pg_ctl', ['-D', replica.dataDir, 'start', '-w', '-t', '60', '-l', replica.logFile]);
    await replica.waitUntilStreaming(primary, 30_000);
    return replica;
  }

  /**
   * `recovery_min_apply_delay` (ALTER SYSTEM + pg_reload_conf on the standby): each commit becomes
   * visible on the replica `ms` after the primary committed it. 0 takes the delay away.
   */
  async setApplyDelay(ms: number): Promise<void> {
    await runSql(this.url('postgres'), `ALTER SYSTEM SET recovery_min_apply_delay = '${Math.max(0, Math.floor(ms))}ms'`);
    await runSql(this.url('postgres'), 'SELECT pg_reload_conf()');
    const deadline = Date.now() + 5000;
    for (;;) {
      const [row] = await runSql<{ delay: string }>(this.url('postgres'), "SELECT current_setting('recovery_min_apply_delay') AS delay");
      if (row?.delay === (ms === 0 ? '0' : `${ms}ms`) || (ms >= 1000 && ms % 1000 === 0 && row?.delay === `${ms / 1000}s`)) return;
      if (Date.now() > deadline) throw new Error(`recovery_min_apply_delay is ${row?.delay}, not ${ms}ms, 5 s after the reload`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** How far the replica's replay is behind the primary's current WAL position (bytes). */
  async lagBytes(primary: PrivatePostgres): Promise<number> {
    const [current] = await runSql<{ lsn: string }>(primary.url('postgres'), 'SELECT pg_current_wal_lsn()::text AS lsn');
    const [row] = await runSql<{ lag: string }>(this.url('postgres'), 'SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::text AS lag', [current!.lsn]);
    return Math.max(0, Number(row?.lag ?? 0));
  }

  /** Client sessions on `database` other than this suite's own (the apps' read pools, when they use the replica). */
  async appSessions(database: string): Promise<number> {
    const [row] = await runSql<{ n: number }>(
      this.url('postgres'),
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND coalesce(application_name, '') <> 'topology-suite'`,
      [database],
    );
    return row?.n ?? 0;
  }

  /** `pg_ctl stop -m immediate` and removes the directory. Never throws. */
  dispose(): void {
    try {
      if (existsSync(join(this.dataDir, 'postmaster.pid'))) this.run('pg_ctl', ['-D', this.dataDir, 'stop', '-m', 'immediate', '-w', '-t', '30']);
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The last `lines` lines of the replica's log (diagnostics). */
  logTail(lines = 30): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no replica log)';
    }
  }

  /** Waits until the standby answers in recovery and the primary lists it as a streaming WAL receiver. */
  private async waitUntilStreaming(primary: PrivatePostgres, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      try {
        const [standby] = await runSql<{ recovering: boolean }>(this.url('postgres'), 'SELECT pg_is_in_recovery() AS recovering');
        const senders = await runSql<{ state: string }>(primary.url('postgres'), 'SELECT state FROM pg_stat_replication');
        if (standby?.recovering && senders.some((sender) => sender.state === 'streaming')) return;
        last = `in recovery: ${standby?.recovering}, senders: ${JSON.stringify(senders)}`;
      } catch (error) {
        last = String(error);
      }
      if (Date.now() > deadline) throw new Error(`replica on port ${this.port} not streaming after ${timeoutMs} ms (${last})\n${this.logTail()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private run(program: string, args: string[]): void {
    const result = spawnSync(join(this.bin, program), args, {
      cwd: this.dir,
      encoding: 'utf8',
      timeout: 90_000,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(this.user ? { uid: this.user.uid, gid: this.user.gid } : {}),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: this.dir },
    });
    if (result.status !== 0) {
      throw new Error(`${program} ${args.join(' ')} failed (status ${result.status}, ${result.error ?? ''}):\n${result.stdout}\n${result.stderr}\n${this.logTail()}`);
    }
  }
}
