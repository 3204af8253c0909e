import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** A free TCP port on 127.0.0.1 (bound then released: take it at once). */
export async function freeLocalPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The newest PostgreSQL server binaries of the machine (`/usr/lib/postgresql/<major>/bin`), or `PG_BIN`. */
function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base)
    ? readdirSync(base)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(base, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/<major>/bin (set PG_BIN)');
  return join(base, majors[0] as string, 'bin');
}

/** uid and gid of the `postgres` OS user when this process is root (initdb refuses root), else null (ourselves). */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** One server of the pair: its port, data directory and log, under the pair's temp directory. */
export interface PrivateServer {
  readonly port: number;
  readonly dataDir: string;
  readonly logFile: string;
}

/**
 * A private PostgreSQL primary and one streaming replica (`pg_basebackup -R -X stream`, hot standby), in
 * a temp directory of the test's own, trust authentication, 127.0.0.1 only, run as the `postgres` OS user
 * when the test runs as root. Never touches the machine's shared server: every stop goes through
 * `pg_ctl -D <our data directory>` (the postmaster PID of that directory), and {@link dispose} falls back
 * to signalling that PID only. Same approach as the fault suite's PrivatePostgres, with a replica.
 */
export class PrivatePostgresReplicaPair {
  private constructor(
    readonly dir: string,
    readonly primary: PrivateServer,
    readonly replica: PrivateServer,
    private readonly bin: string,
    private readonly user: { uid: number; gid: number } | null,
  ) {}

  /** `postgres://postgres@127.0.0.1:<primary port>/<database>`. */
  primaryUrl(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.primary.port}/${database}`;
  }

  /** `postgres://postgres@127.0.0.1:<replica port>/<database>` (read-only: a hot standby). */
  replicaUrl(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.replica.port}/${database}`;
  }

  /**
   * initdb + start the primary, create `database` on it, run `prepare(primaryUrl)` (migrations), then
   * take a base backup into the replica and start it; resolves once the replica streams (a row written
   * on the primary is visible on it). Throws (and removes everything) when any step fails.
   */
  static async start(database: string, prepare: (primaryUrl: string) => Promise<void> = async () => undefined): Promise<PrivatePostgresReplicaPair> {
    const dir = mkdtempSync(join(tmpdir(), 'leadflow-replica-pg-'));
    const user = serverUser();
    if (user) chownSync(dir, user.uid, user.gid);
    const server = (name: string, port: number): PrivateServer => ({ port, dataDir: join(dir, name), logFile: join(dir, `${name}.log`) });
    const pair = new PrivatePostgresReplicaPair(dir, server('primary', await freeLocalPort()), server('replica', await freeLocalPort()), postgresBinDir(), user);
    try {
      pair.run('initdb', ['-D', pair.primary.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
      pair.configure(pair.primary, ['wal_level = replica', 'max_wal_senders = 5', 'wal_keep_size = 256MB']);
      pair.pgCtl(pair.primary, ['start', '-w', '-t', '60', '-l', pair.primary.logFile]);
      await pair.waitUntilReady(pair.primaryUrl('postgres'), 30_000);
      const admin = new Client({ connectionString: pair.primaryUrl('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${database}"`);
      } finally {
        await admin.end();
      }
      await prepare(pair.primaryUrl(database));
      mkdirSync(pair.replica.dataDir, { mode: 0o700 });
      if (user) chownSync(pair.replica.dataDir, user.uid, user.gid);
      pair.run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(pair.primary.port), '-U', 'postgres', '-D', pair.replica.dataDir, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
      pair.configure(pair.replica, ['hot_standby = on']);
      await pair.startReplica();
      return pair;
    } catch (error) {
      pair.dispose();
      throw error;
    }
  }

  /**
   * Delays the replica's replay of each commit by `delayMs` (`ALTER SYSTEM SET recovery_min_apply_delay`
   * on the replica, then `pg_reload_conf()`): a simulated replication lag. 0 removes it.
   */
  async setReplicaApplyDelay(delayMs: number): Promise<void> {
    const client = new Client({ connectionString: this.replicaUrl('postgres') });
    await client.connect();
    try {
      await client.query(`ALTER SYSTEM SET recovery_min_apply_delay = '${Math.max(0, Math.round(delayMs))}ms'`);
      await client.query('SELECT pg_reload_conf()');
    } finally {
      await client.end();
    }
  }

  /** `pg_ctl stop -m fast` on the replica (its connections are cut); the primary keeps running. */
  stopReplica(): void {
    this.pgCtl(this.replica, ['stop', '-m', 'fast', '-w', '-t', '60']);
  }

  /** Starts the (stopped) replica again; resolves once it accepts connections and streams from the primary. */
  async startReplica(): Promise<void> {
    this.pgCtl(this.replica, ['start', '-w', '-t', '60', '-l', this.replica.logFile]);
    await this.waitUntilReady(this.replicaUrl('postgres'), 30_000);
    await this.waitUntilStreaming(30_000);
  }

  /** Stops both servers (`pg_ctl stop -m immediate`, else SIGQUIT to the postmaster PID of our directory) and removes the directory. Never throws. */
  dispose(): void {
    for (const server of [this.replica, this.primary]) {
      const pidFile = join(server.dataDir, 'postmaster.pid');
      if (!existsSync(pidFile)) continue;
      try {
        this.pgCtl(server, ['stop', '-m', 'immediate', '-w', '-t', '30']);
      } catch {
        const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
        if (Number.isInteger(pid) && pid > 1) {
          try {
            process.kill(pid, 'SIGQUIT');
          } catch {
            // already gone
          }
        }
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The last `lines` lines of both server logs (diagnostics). */
  logTail(lines = 20): string {
    const tail = (file: string) => {
      try {
        return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
      } catch {
        return '(no log)';
      }
    };
    return `--- primary\n${tail(this.primary.logFile)}\n--- replica\n${tail(this.replica.logFile)}`;
  }

  private configure(server: PrivateServer, extra: string[]): void {
    appendFileSync(
      join(server.dataDir, 'postgresql.conf'),
      [
        '',
        '# leadflow private primary/replica',
        `port = ${server.port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${this.dir}'`,
        'max_connections = 100',
        'shared_buffers = 32MB',
        'fsync = off',
        'logging_collector = off',
        ...extra,
        '',
      ].join('\n'),
    );
  }

  /** Until a marker committed on the primary is visible on the replica (streaming and replaying), or throws at the deadline. */
  private async waitUntilStreaming(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const primary = new Client({ connectionString: this.primaryUrl('postgres') });
    await primary.connect();
    try {
      const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      const target = (rows[0] as { lsn: string }).lsn;
      for (;;) {
        const replica = new Client({ connectionString: this.replicaUrl('postgres'), connectionTimeoutMillis: 2000 });
        replica.on('error', () => undefined);
        try {
          await replica.connect();
          const { rows: replayed } = await replica.query<{ ok: boolean }>(
            "SELECT pg_is_in_recovery() AND pg_last_wal_replay_lsn() >= $1::pg_lsn AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') AS ok",
            [target],
          );
          if (replayed[0]?.ok) return;
        } catch {
          // not yet
        } finally {
          await replica.end().catch(() => undefined);
        }
        if (Date.now() > deadline) throw new Error(`the replica on port ${this.replica.port} is not streaming after ${timeoutMs} ms\n${this.logTail()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await primary.end();
    }
  }

  private async waitUntilReady(url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return;
      } catch (error) {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error(`private PostgreSQL ${url} not ready after ${timeoutMs} ms: ${String(error)}\n${this.logTail()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  private pgCtl(server: PrivateServer, args: string[]): void {
    this.run('pg_ctl', ['-D', server.dataDir, ...args]);
  }

  private run(program: string, args: string[]): void {
    const result = spawnSync(join(this.bin, program), args, {
      cwd: this.dir,
      encoding: 'utf8',
      timeout: 90_000,
      // pg_ctl leaves the server running detached: its output goes to the log file, never to our pipes.
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(this.user ? { uid: this.user.uid, gid: this.user.gid } : {}),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: this.dir },
    });
    if (result.status !== 0) {
      throw new Error(`${program} ${args.join(' ')} failed (status ${result.status}, ${result.error ?? ''}):\n${result.stdout}\n${result.stderr}\n${this.logTail()}`);
    }
  }
}
