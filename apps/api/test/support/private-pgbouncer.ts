import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What {@link PrivatePgBouncer.start} puts in front of which PostgreSQL, and how. */
export interface PrivatePgBouncerOptions {
  /** PostgreSQL behind it (default 127.0.0.1:5432, the shared server); every database name is passed through. */
  serverHost?: string;
  serverPort?: number;
  /** `pool_mode` (default `transaction`). */
  poolMode?: 'session' | 'transaction' | 'statement';
  /** Server connections per database and user (`default_pool_size`, default 4: fewer than the clients, so they share backends). */
  poolSize?: number;
  /** The binary (default `PGBOUNCER_PATH` or /usr/sbin/pgbouncer, see tools/scripts/ensure-pgbouncer.mjs). */
  binary?: string;
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** uid and gid of the `postgres` OS user when this process is root (PgBouncer refuses to run as root), else null. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PgBouncer of the test's own (Debian's 1.18 binary, run as a child process): its configuration, auth
 * file and log in a temp directory, listening on 127.0.0.1:`port` (a free port, never 6432; no Unix socket),
 * `auth_type = trust` for the `postgres` user, in front of the shared PostgreSQL by default. `dispose()`
 * kills it by its PID and removes the directory. Run as the `postgres` OS user when the test runs as root.
 */
export class PrivatePgBouncer {
  private constructor(
    readonly port: number,
    readonly dir: string,
    private child: ChildProcess,
    private readonly launch: () => ChildProcess,
  ) {}

  /** `postgres://postgres@127.0.0.1:<port>/<database>`: a client connection to PgBouncer. */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Writes the configuration, starts PgBouncer and resolves once it accepts TCP connections (10 s at most). */
  static async start(options: PrivatePgBouncerOptions = {}): Promise<PrivatePgBouncer> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'leadflow-pgbouncer-'));
    const user = serverUser();
    const config = join(dir, 'pgbouncer.ini');
    writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
    writeFileSync(
      config,
      [
        '[databases]',
        `* = host=${options.serverHost ?? '127.0.0.1'} port=${options.serverPort ?? 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        "unix_socket_dir = ''",
        'auth_type = trust',
        `auth_file = ${join(dir, 'userlist.txt')}`,
        `pool_mode = ${options.poolMode ?? 'transaction'}`,
        `default_pool_size = ${options.poolSize ?? 4}`,
        'max_client_conn = 500',
        'ignore_startup_parameters = extra_float_digits',
        `logfile = ${join(dir, 'pgbouncer.log')}`,
        'log_connections = 0',
        'log_disconnections = 0',
        '',
      ].join('\n'),
    );
    if (user) chownSync(dir, user.uid, user.gid);
    const binary = options.binary ?? process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';
    let stderr = '';
    const launch = () => {
      const child = spawn(binary, [config], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], ...(user ? { uid: user.uid, gid: user.gid } : {}) });
      child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
      return child;
    };
    const bouncer = new PrivatePgBouncer(port, dir, launch(), launch);
    try {
      await bouncer.waitUntilListening(10_000);
    } catch (error) {
      bouncer.dispose();
      throw new Error(`${String(error)}\n${stderr}\n${bouncer.logTail()}`);
    }
    return bouncer;
  }

  /** Whether the PgBouncer process runs (false between `stop()` and `restart()`). */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * SIGTERM to its PID (PgBouncer's immediate shutdown: every client and server connection is cut), SIGKILL
   * if it is still there after 5 s; resolves once it exited. The configuration stays for `restart()`.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  /** Starts PgBouncer again (stopped first if it runs) on the same port with the same configuration; resolves once it listens. */
  async restart(): Promise<void> {
    await this.stop();
    this.child = this.launch();
    await this.waitUntilListening(10_000);
  }

  /** SIGKILL to its PID (only this child's), then removes the directory. Never throws. */
  dispose(): void {
    if (this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      try {
        process.kill(this.child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The last `lines` lines of PgBouncer's log (diagnostics). */
  logTail(lines = 30): string {
    try {
      return readFileSync(join(this.dir, 'pgbouncer.log'), 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no pgbouncer log)';
    }
  }

  private async waitUntilListening(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`pgbouncer exited (code ${this.child.exitCode})`);
      const connected = await new Promise<boolean>((resolve) => {
        const socket = new Socket();
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
        socket.connect(this.port, '127.0.0.1');
      });
      if (connected) return;
      if (Date.now() > deadline) throw new Error(`pgbouncer not listening on 127.0.0.1:${this.port} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
