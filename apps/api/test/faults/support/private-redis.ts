import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/** Sends one inline command to 127.0.0.1:`port`; resolves with the first reply line, rejects on a connection error or after 1 s. */
export function redisCommand(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy(new Error('timeout')));
    socket.once('error', reject);
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (data) => {
      reply += data.toString('utf8');
      const end = reply.indexOf('\r\n');
      if (end >= 0) {
        socket.end();
        resolve(reply.slice(0, end));
      }
    });
  });
}

/** Names of the connected clients (`CLIENT LIST`, its `name=` fields; unnamed clients left out). */
export function redisClientNames(port: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = Buffer.alloc(0);
    socket.setTimeout(1000, () => socket.destroy(new Error('timeout')));
    socket.once('error', reject);
    socket.once('connect', () => socket.write('CLIENT LIST\r\n'));
    socket.on('data', (data: Buffer) => {
      reply = Buffer.concat([reply, data]);
      const header = /^\$(\d+)\r\n/.exec(reply.toString('latin1', 0, Math.min(reply.length, 32)));
      if (!header) return;
      const start = header[0].length;
      const length = Number(header[1]);
      if (reply.length < start + length) return;
      socket.end();
      const text = reply.toString('utf8', start, start + length);
      resolve(
        text
          .split('\n')
          .map((line) => / name=(\S*)/.exec(line)?.[1] ?? '')
          .filter((name) => name.length > 0),
      );
    });
  });
}

/**
 * A Redis server of the test's own: `redis-server --port <port>` as a child process, with no persistence
 * (`--save "" --appendonly no`), so a restart after SIGKILL always comes back EMPTY, which is what losing
 * Redis's data looks like to the service. Never touches the machine's shared Redis.
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private readonly dir = mkdtempSync(join(tmpdir(), 'leadflow-faults-redis-'));
  private readonly output: string[] = [];

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  static async start(port: number): Promise<PrivateRedis> {
    const redis = new PrivateRedis(port);
    await redis.launch();
    return redis;
  }

  /** SIGKILL: no shutdown, no save; resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  /** Starts a new, empty server on the same port; resolves once it answers PING. */
  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Keys in database 0 (`DBSIZE`). */
  async keyCount(): Promise<number> {
    return Number((await redisCommand(this.port, 'DBSIZE')).replace(/^:/, ''));
  }

  /** Names of the connected clients (BullMQ workers name their blocking connection `<prefix>:<base64 queue name>`). */
  clientNames(): Promise<string[]> {
    return redisClientNames(this.port);
  }

  /**
   * Jobs not finished in the BullMQ queues of `prefix` (`<prefix>:<queue>:wait`, `:paused` and `:active`
   * lists, `:prioritized` and `:delayed` sorted sets), by queue: what losing Redis's data loses. Empty when
   * Redis does not answer. `states` narrows it (`['wait', 'paused', 'prioritized', 'delayed']`: jobs no
   * worker holds, which are certainly lost with Redis's data).
   */
  async pendingJobs(
    prefix: string,
    states: readonly ('wait' | 'paused' | 'active' | 'prioritized' | 'delayed')[] = ['wait', 'paused', 'active', 'prioritized', 'delayed'],
  ): Promise<Record<string, number>> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    client.on('error', () => undefined);
    const byQueue: Record<string, number> = {};
    try {
      await client.connect();
      const keys = (await Promise.all(states.map((state) => client.keys(`${prefix}:*:${state}`)))).flat();
      const sizes = await Promise.all(keys.map((key) => (/:(wait|paused|active)$/.test(key) ? client.llen(key) : client.zcard(key))));
      keys.forEach((key, index) => {
        if (sizes[index] === 0) return;
        const queue = key.slice(prefix.length + 1, key.lastIndexOf(':'));
        byQueue[queue] = (byQueue[queue] ?? 0) + sizes[index];
      });
    } catch {
      // Redis unreachable: nothing known
    } finally {
      client.disconnect();
    }
    return byQueue;
  }

  logTail(lines = 20): string {
    return this.output.slice(-lines).join('\n');
  }

  private async launch(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', this.dir, '--loglevel', 'warning'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (data: Buffer) => {
      this.output.push(...data.toString('utf8').split('\n').filter((line) => line.length > 0));
      if (this.output.length > 500) this.output.splice(0, this.output.length - 500);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('error', (error) => this.output.push(`spawn error: ${String(error)}`));
    this.child = child;
    // The port is taken again at once after a SIGKILL (Redis sets SO_REUSEADDR); retry a little anyway.
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server on port ${this.port} exited at start:\n${this.logTail()}`);
      const pong = await redisCommand(this.port, 'PING').catch(() => '');
      if (pong === '+PONG') return;
      if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} does not answer PING:\n${this.logTail()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
