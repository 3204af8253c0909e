import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

const run = promisify(execFile);

/** One node of a {@link PrivateRedisCluster} as `CLUSTER NODES` describes it. */
export interface ClusterNodeInfo {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** The master's node id, for a replica. */
  masterId: string | null;
  /** Slot ranges served, for a master (`[first, last]`). */
  slots: [number, number][];
  /** Whether the node is seen failing (`fail` or `fail?` flag). */
  failing: boolean;
}

/** Options of {@link PrivateRedisCluster.start}. */
export interface PrivateRedisClusterOptions {
  /** Masters (default 3, at least 3: Redis Cluster's minimum). */
  masters?: number;
  /** Replicas per master (default 1). */
  replicasPerMaster?: number;
  /** `cluster-node-timeout` in ms (default 3000): how soon a dead node is declared failed. */
  nodeTimeoutMs?: number;
  /** Longest wait for the cluster to form (ms, default 30000). */
  startTimeoutMs?: number;
}

/** Resolves when `check` answers true, polling every `everyMs`; rejects with `what` after `timeoutMs`. */
export async function pollUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 100): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await Promise.resolve(check()).catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A TCP port of 127.0.0.1 free now, whose cluster bus port (+10000) is free too. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 30_000 + Math.floor(Math.random() * 20_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await portFree(port)) && (await portFree(port + 10_000))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A Redis Cluster of the test's own on 127.0.0.1 (default 3 masters + 3 replicas): `redis-server` child
 * processes in cluster mode on free ports, each in a temp directory, without persistence, joined with
 * `redis-cli --cluster create … --cluster-yes`. Only its own processes are ever stopped (by child PID); the
 * machine's shared Redis is never touched. Reusable by any suite that needs a cluster (topology, faults).
 */
export class PrivateRedisCluster {
  private readonly children = new Map<number, ChildProcess>();
  private readonly output: string[] = [];

  private constructor(
    readonly ports: number[],
    private readonly dir: string,
    private readonly nodeTimeoutMs: number,
  ) {}

  /**
   * Starts the nodes, creates the cluster and waits until every node reports `cluster_state:ok` and knows
   * every other node. Throws (after stopping what it started) when the cluster does not form in time.
   */
  static async start(options: PrivateRedisClusterOptions = {}): Promise<PrivateRedisCluster> {
    const masters = options.masters ?? 3;
    const replicas = options.replicasPerMaster ?? 1;
    if (masters < 3) throw new RangeError('a Redis Cluster needs at least 3 masters');
    const taken = new Set<number>();
    const ports: number[] = [];
    for (let index = 0; index < masters * (1 + replicas); index += 1) {
      const port = await freeClusterPort(taken);
      taken.add(port).add(port + 10_000);
      ports.push(port);
    }
    const cluster = new PrivateRedisCluster(ports, mkdtempSync(join(tmpdir(), 'leadflow-redis-cluster-')), options.nodeTimeoutMs ?? 3000);
    try {
      await Promise.all(ports.map((port) => cluster.launch(port)));
      await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', String(replicas), '--cluster-yes'], { timeout: 30_000 });
      await cluster.waitHealthy(options.startTimeoutMs ?? 30_000);
    } catch (error) {
      const tail = cluster.output.slice(-20).join('\n');
      await cluster.dispose();
      throw new Error(`Redis Cluster did not start: ${String(error)}\n${tail}`);
    }
    return cluster;
  }

  /** `REDIS_CLUSTER_NODES` for this cluster: every node as `127.0.0.1:<port>`, comma-separated. */
  get seeds(): string {
    return this.ports.map((port) => `127.0.0.1:${port}`).join(',');
  }

  /** PIDs of the running nodes, by port. */
  get pids(): Record<number, number | undefined> {
    return Object.fromEntries([...this.children].map(([port, child]) => [port, child.pid]));
  }

  /** Sends one command to the node on `port` (a direct connection; no redirection followed). */
  async command(port: number, ...args: (string | number)[]): Promise<unknown> {
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await client.call(String(args[0]), ...args.slice(1).map(String));
    } finally {
      client.disconnect();
    }
  }

  /** The nodes as the node on `port` (default: the first running one) sees them (`CLUSTER NODES`). */
  async nodes(port = this.anyRunningPort()): Promise<ClusterNodeInfo[]> {
    const text = String(await this.command(port, 'CLUSTER', 'NODES'));
    return text
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => {
        const [id, address, flags, master, , , , , ...slots] = line.split(' ');
        const flagSet = new Set((flags ?? '').split(','));
        return {
          id: id as string,
          port: Number(/:(\d+)@/.exec(address ?? '')?.[1]),
          role: flagSet.has('master') ? 'master' : 'replica',
          masterId: master && master !== '-' ? master : null,
          slots: slots.filter((range) => /^\d/.test(range)).map((range) => {
            const [first, last] = range.split('-').map(Number);
            return [first as number, (last ?? first) as number];
          }),
          failing: flagSet.has('fail') || flagSet.has('fail?'),
        } satisfies ClusterNodeInfo;
      });
  }

  /** Ports of the current masters, in slot order (the master of slot 0 first). */
  async masterPorts(): Promise<number[]> {
    const nodes = await this.nodes();
    return nodes
      .filter((node) => node.role === 'master' && node.slots.length > 0)
      .sort((a, b) => (a.slots[0]?.[0] ?? 0) - (b.slots[0]?.[0] ?? 0))
      .map((node) => node.port);
  }

  /** Keys held by the node on `port` (`DBSIZE`). */
  async keyCount(port: number): Promise<number> {
    return Number(await this.command(port, 'DBSIZE'));
  }

  /** Keys of the node on `port` matching `pattern` (`SCAN`, every page). */
  async scan(port: number, pattern: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, page] = (await this.command(port, 'SCAN', cursor, 'MATCH', pattern, 'COUNT', 1000)) as [string, string[]];
      keys.push(...page);
      cursor = next;
    } while (cursor !== '0');
    return keys;
  }

  /**
   * `CLUSTER FAILOVER` on a replica of the master on `masterPort` (a coordinated, lossless switch), then waits
   * until that replica serves the master's slots as seen by every running node and the cluster is ok.
   * Returns the new master's port and how long the switch took (ms).
   */
  async failover(masterPort: number, timeoutMs = 20_000): Promise<{ newMasterPort: number; tookMs: number }> {
    const nodes = await this.nodes(masterPort);
    const master = nodes.find((node) => node.port === masterPort && node.role === 'master');
    const replica = nodes.find((node) => node.role === 'replica' && node.masterId === master?.id && !node.failing);
    if (!master || !replica) throw new Error(`no replica of a master on port ${masterPort}`);
    const started = Date.now();
    await this.command(replica.port, 'CLUSTER', 'FAILOVER');
    await pollUntil(
      `replica ${replica.port} promoted`,
      async () => {
        for (const port of this.runningPorts()) {
          const seen = (await this.nodes(port)).find((node) => node.port === replica.port);
          if (seen?.role !== 'master') return false;
        }
        return true;
      },
      timeoutMs,
      50,
    );
    await this.waitHealthy(timeoutMs);
    return { newMasterPort: replica.port, tookMs: Date.now() - started };
  }

  /** SIGKILL of the node on `port` (its child PID only). */
  async kill(port: number): Promise<void> {
    const child = this.children.get(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.children.delete(port);
  }

  /** Stops every node (SIGKILL by PID) and removes the temp directory. */
  async dispose(): Promise<void> {
    await Promise.all([...this.children.keys()].map((port) => this.kill(port)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Waits until every running node says `cluster_state:ok` and knows every running node. */
  async waitHealthy(timeoutMs: number): Promise<void> {
    await pollUntil(
      'Redis Cluster state ok on every node',
      async () => {
        for (const port of this.runningPorts()) {
          const info = String(await this.command(port, 'CLUSTER', 'INFO'));
          if (!info.includes('cluster_state:ok') || !info.includes('cluster_slots_ok:16384')) return false;
          if (Number(/cluster_known_nodes:(\d+)/.exec(info)?.[1]) < this.ports.length) return false;
        }
        return true;
      },
      timeoutMs,
      100,
    );
  }

  private runningPorts(): number[] {
    return [...this.children.keys()];
  }

  private anyRunningPort(): number {
    const port = this.runningPorts()[0];
    if (port === undefined) throw new Error('no running Redis Cluster node');
    return port;
  }

  private async launch(port: number): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port', String(port),
        '--bind', '127.0.0.1',
        '--cluster-enabled', 'yes',
        '--cluster-config-file', `nodes-${port}.conf`,
        '--cluster-node-timeout', String(this.nodeTimeoutMs),
        '--save', '',
        '--appendonly', 'no',
        '--daemonize', 'no',
        '--dir', this.dir,
        '--loglevel', 'warning',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (data: Buffer) => {
      this.output.push(...data.toString('utf8').split('\n').filter((line) => line.length > 0).map((line) => `${port}: ${line}`));
      if (this.output.length > 500) this.output.splice(0, this.output.length - 500);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.children.set(port, child);
    await pollUntil(`redis-server on ${port} answers PING`, async () => (await this.command(port, 'PING')) === 'PONG', 15_000, 50);
  }
}
