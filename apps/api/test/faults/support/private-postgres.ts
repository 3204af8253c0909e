import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** The newest PostgreSQL server binaries of the machine (`/usr/lib/postgresql/<major>/bin`), or `PG_BIN`. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base)
    ? readdirSync(base)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(base, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/<major>/bin (set PG_BIN)');
  return join(base, majors[0], 'bin');
}

/** uid and gid of the OS user the server runs as: the `postgres` user when this process is root (initdb refuses root), else ourselves. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PostgreSQL cluster of the test's own: `initdb` into a temp directory, trust authentication, listening
 * on 127.0.0.1:`port` only (Unix socket in the same directory), started and restarted with `pg_ctl`.
 * Never touches the machine's shared server. Run as the `postgres` OS user when the test runs as root.
 */
export class PrivatePostgres {
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

  /** initdb + pg_ctl start; resolves once the server accepts connections. */
  static async start(port: number): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'leadflow-faults-pg-'));
    const user = serverUser();
    if (user) chownSync(dir, user.uid, user.gid);
    const server = new PrivatePostgres(port, dir, postgresBinDir(), user);
    server.run('initdb', ['-D', server.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    // Appended by root keeps the file's owner. fsync off: the machine itself never crashes in this test,
    // a server crash (`-m immediate`) still goes through WAL recovery.
    appendFileSync(
      join(server.dataDir, 'postgresql.conf'),
      [
        '',
        '# leadflow fault suite',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'max_connections = 200',
        'shared_buffers = 64MB',
        'fsync = off',
        'logging_collector = off',
        '',
      ].join('\n'),
    );
    server.pgCtl(['start', '-w', '-t', '60', '-l', server.logFile]);
    await server.waitUntilReady(30_000);
    return server;
  }

  /**
   * `pg_ctl restart -m <mode>`: every connection is cut (`fast`: clean shutdown; `immediate`: the
   * server is killed and recovers from its WAL on start). Resolves once it accepts connections again.
   */
  async restart(mode: 'fast' | 'immediate'): Promise<void> {
    this.pgCtl(['restart', '-m', mode, '-w', '-t', '60', '-l', this.logFile]);
    await this.waitUntilReady(30_000);
  }

  /** `pg_ctl stop -m immediate` and removes the directory. Never throws. */
  dispose(): void {
    try {
      if (existsSync(join(this.dataDir, 'postmaster.pid'))) this.pgCtl(['stop', '-m', 'immediate', '-w', '-t', '30']);
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The last `lines` lines of the server log (diagnostics). */
  logTail(lines = 30): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no server log)';
    }
  }

  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const client = new Client({ connectionString: this.url('postgres'), connectionTimeoutMillis: 2000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return;
      } catch (error) {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error(`private PostgreSQL on port ${this.port} not ready after ${timeoutMs} ms: ${String(error)}\n${this.logTail()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  private pgCtl(args: string[]): void {
    this.run('pg_ctl', ['-D', this.dataDir, ...args]);
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
