import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../support/private-pgbouncer';

/** One backend server of {@link PrivateHaproxy}. */
export interface HaproxyServer {
  name: string;
  port: number;
}

/** Options of {@link PrivateHaproxy.start}. */
export interface PrivateHaproxyOptions {
  servers: HaproxyServer[];
  /** Health check path (`option httpchk GET <path>`, 200 expected). */
  checkPath: string;
  /** Check interval (ms, default 500); a server is down after `fall` failed checks and up after `rise` good ones (default 2 each). */
  checkIntervalMs?: number;
  fall?: number;
  rise?: number;
  /** The binary (default `HAPROXY_PATH` or /usr/sbin/haproxy, see tools/scripts/ensure-haproxy.mjs). */
  binary?: string;
}

/**
 * An HAProxy of the test's own (Debian's 2.6 binary as a child process, foreground `-db`), its configuration
 * in a temp directory: an HTTP frontend on 127.0.0.1:`port` balancing `roundrobin` over the servers, each
 * checked with `option httpchk GET <checkPath>`, `option forwardfor` (the apps trust 127.0.0.1 in
 * TRUST_PROXY), connection failures retried once on another server (`option redispatch`), and a stats
 * frontend on `statsPort` (`/stats;csv`) telling which servers are up. `dispose()` kills it by its PID.
 */
export class PrivateHaproxy {
  private constructor(
    readonly port: number,
    readonly statsPort: number,
    readonly dir: string,
    private readonly child: ChildProcess,
    private readonly output: { at: number; line: string }[],
  ) {}

  /** `http://127.0.0.1:<port>`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Writes the configuration, checks it (`haproxy -c`), starts HAProxy and resolves once its stats page answers. */
  static async start(options: PrivateHaproxyOptions): Promise<PrivateHaproxy> {
    const [port, statsPort] = [await freePort(), await freePort()];
    const dir = mkdtempSync(join(tmpdir(), 'leadflow-haproxy-'));
    const inter = options.checkIntervalMs ?? 500;
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '  maxconn 4096',
        `  pidfile ${join(dir, 'haproxy.pid')}`,
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        '  timeout http-keep-alive 10s',
        '  option redispatch',
        '  retries 1',
        'frontend leadflow',
        `  bind 127.0.0.1:${port}`,
        '  option forwardfor',
        '  default_backend nodes',
        'backend nodes',
        '  balance roundrobin',
        `  option httpchk GET ${options.checkPath}`,
        '  http-check expect status 200',
        `  default-server inter ${inter}ms fastinter ${inter}ms downinter ${inter}ms fall ${options.fall ?? 2} rise ${options.rise ?? 2}`,
        ...options.servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`),
        'frontend stats',
        `  bind 127.0.0.1:${statsPort}`,
        '  stats enable',
        '  stats uri /stats',
        '',
      ].join('\n'),
    );
    const binary = options.binary ?? process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
    const checked = spawnSync(binary, ['-c', '-q', '-f', config], { encoding: 'utf8' });
    if (checked.status !== 0) throw new Error(`haproxy -c refused the configuration:\n${checked.stdout}\n${checked.stderr}`);
    const output: { at: number; line: string }[] = [];
    const child = spawn(binary, ['-db', '-f', config], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (data: Buffer) => {
      const at = Date.now();
      output.push(...data.toString('utf8').split('\n').filter((line) => line.length > 0).map((line) => ({ at, line })));
      if (output.length > 200) output.splice(0, output.length - 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const proxy = new PrivateHaproxy(port, statsPort, dir, child, output);
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`haproxy exited (code ${child.exitCode})\n${proxy.logTail()}`);
      if (await proxy.serverStates().then(() => true, () => false)) return proxy;
      if (Date.now() > deadline) {
        proxy.dispose();
        throw new Error(`haproxy stats not answering on ${statsPort} after 10 s\n${proxy.logTail()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Each backend server's status as HAProxy sees it (`UP`, `DOWN`, `UP 1/2`, …), from the stats CSV. */
  async serverStates(): Promise<Record<string, string>> {
    return Object.fromEntries((await this.stats()).map((row) => [row.name, row.status]));
  }

  /** Each backend server's total sessions so far (`stot`): how many requests' connections it was given. */
  async serverSessions(): Promise<Record<string, number>> {
    return Object.fromEntries((await this.stats()).map((row) => [row.name, row.sessions]));
  }

  private async stats(): Promise<{ name: string; status: string; sessions: number }[]> {
    const response = await fetch(`http://127.0.0.1:${this.statsPort}/stats;csv`, { signal: AbortSignal.timeout(2000) });
    const lines = (await response.text()).split('\n');
    const header = (lines[0] ?? '').replace(/^# /, '').split(',');
    const column = (name: string) => header.indexOf(name);
    return lines
      .slice(1)
      .map((line) => line.split(','))
      .filter((fields) => fields[column('pxname')] === 'nodes' && !['FRONTEND', 'BACKEND'].includes(fields[column('svname')] ?? ''))
      .map((fields) => ({ name: fields[column('svname')] ?? '', status: fields[column('status')] ?? '', sessions: Number(fields[column('stot')] ?? 0) }));
  }

  /** HAProxy's own output (diagnostics: server state changes are logged there). */
  logTail(lines = 20): string {
    return this.output.slice(-lines).map((entry) => entry.line).join('\n');
  }

  /** The server state changes HAProxy reported (`Server nodes/node2 is DOWN, reason: …`), with when they arrived (ms since the epoch). */
  stateChanges(): { at: number; line: string }[] {
    return this.output.filter((entry) => /Server nodes\/\S+ is (UP|DOWN)/.test(entry.line)).map((entry) => ({ at: entry.at, line: entry.line.replace(/^.*?(Server nodes)/, '$1') }));
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
}
