import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { AddressInfo, connect, createServer, Socket } from 'node:net';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { createTestServices, TestServices } from '@leadflow/shared-testing';

/**
 * `npm start` supervisor (operator-api › Runtime contract; tools/scripts/start.mjs): the real
 * `node tools/scripts/start.mjs` on a database and Redis prefix of its own, with API_PROCESSES=2.
 * The steps run in order on one supervisor: two api processes serve the one port, a killed worker
 * or api process is restarted while the port keeps answering, and SIGTERM stops everything
 * gracefully (the in-flight request finishes) with exit code 0 and no process left behind. The worker
 * runs at a lower CPU priority (nice WORKER_NICE, default 10; issue 11), the api processes at the supervisor's (0).
 */
const ROOT = join(__dirname, '..', '..', '..');
const API_ENTRY = 'apps/api/src/main.ts';
const WORKER_ENTRY = 'apps/worker/src/main.ts';

interface Proc {
  pid: number;
  args: string;
}

/** Direct children of `ppid` (ps exits 1 when there is none). */
function childrenOf(ppid: number): Proc[] {
  try {
    return execFileSync('ps', ['--ppid', String(ppid), '-o', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
      .filter((match): match is RegExpMatchArray => match !== null)
      .map((match) => ({ pid: Number(match[1]), args: match[2] }));
  } catch {
    return [];
  }
}

const sorted = (pids: number[]) => [...pids].sort((a, b) => a - b);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** GET /health on a fresh connection (no keep-alive): the status, or the connection error's code. */
function health(port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/health', agent: false, timeout: 5000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Opens a connection, writes `head`, resolves once connected; `response` resolves with the first bytes received (fails after 10 s idle). */
function rawConnection(port: number, head: string): Promise<{ socket: Socket; response: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(10_000, () => socket.destroy());
    const response = new Promise<string>((resolveResponse, rejectResponse) => {
      socket.once('data', (data) => resolveResponse(data.toString('latin1')));
      socket.once('error', rejectResponse);
      socket.once('close', () => rejectResponse(new Error('connection closed without a response')));
    });
    response.catch(() => undefined);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(head);
      resolve({ socket, response });
    });
  });
}

/** The pid among `pids` holding the server side of the 127.0.0.1 connection from `clientPort` to `port` (/proc/net/tcp + fds). */
function serverSideOwner(pids: number[], port: number, clientPort: number): number | undefined {
  const hexPort = (n: number) => `:${n.toString(16).toUpperCase().padStart(4, '0')}`;
  const row = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1]?.endsWith(hexPort(port)) && fields[2]?.endsWith(hexPort(clientPort)));
  if (!row) return undefined;
  const target = `socket:[${row[9]}]`;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === target;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

describe('npm start supervisor: API_PROCESSES api processes on one port, dead processes restarted, SIGTERM stops all', () => {
  let services: TestServices;
  let port: number;
  let start: ChildProcess;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let output = '';
  const seenPids = new Set<number>();
  const openSockets: Socket[] = [];

  const apis = () => childrenOf(start.pid!).filter((proc) => proc.args.includes(API_ENTRY));
  const workers = () => childrenOf(start.pid!).filter((proc) => proc.args.includes(WORKER_ENTRY));
  const remember = (procs: Proc[]) => {
    for (const proc of procs) seenPids.add(proc.pid);
    return procs;
  };
  /**
   * Sends GET /health on new connections until each current api process served one with 200 (the
   * process holding the server side of the connection, read from /proc; app logs are buffered, so
   * they cannot tell). Resolves with the pids seen serving.
   */
  async function apisServing(count: number, timeoutMs: number): Promise<number[]> {
    const served = new Set<number>();
    return waitFor(
      `${count} api processes serving the port`,
      async () => {
        const current = remember(apis()).map((proc) => proc.pid);
        if (current.length !== count) return undefined;
        const connection = await rawConnection(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n').catch(() => undefined);
        if (!connection) return undefined; // nobody listening yet
        openSockets.push(connection.socket);
        const response = await connection.response.catch(() => '');
        const owner = serverSideOwner(current, port, connection.socket.localPort!);
        connection.socket.destroy();
        if (owner !== undefined && /^HTTP\/1\.1 200 /.test(response)) served.add(owner);
        return current.every((pid) => served.has(pid)) ? sorted(current) : undefined;
      },
      timeoutMs,
    );
  }

  beforeAll(async () => {
    services = await createTestServices();
    port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      REDIS_PREFIX: services.redisPrefix,
      HOST: '127.0.0.1',
      PORT: String(port),
      API_PROCESSES: '2',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      STOP_TIMEOUT_MS: '15000',
    };
    delete env.ADMIN_TOKEN;
    delete env.PUBLIC_BASE_URL;
    delete env.WORKER_NICE; // the default, 10
    start = spawn(process.execPath, ['tools/scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    exited = new Promise((resolve) => start.once('exit', (code, signal) => resolve({ code, signal })));
    start.stdout!.on('data', (data: Buffer) => (output += data.toString()));
    start.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    await apisServing(2, 40_000);
    await waitFor('the worker process', () => remember(workers()).length === 1 || undefined, 5_000);
  }, 60_000);

  afterAll(async () => {
    // SUPERVISOR_TEST_LOG=<file>: keep the supervisor's output for diagnosis.
    if (process.env.SUPERVISOR_TEST_LOG) writeFileSync(process.env.SUPERVISOR_TEST_LOG, output);
    for (const socket of openSockets) socket.destroy();
    if (start?.exitCode === null && start.signalCode === null) {
      for (const proc of childrenOf(start.pid!)) seenPids.add(proc.pid);
      start.kill('SIGKILL');
    }
    for (const pid of seenPids) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await services?.dispose();
  });

  it('runs API_PROCESSES=2 api processes that both answer on the one port, plus one worker', async () => {
    const api = apis().map((proc) => proc.pid);
    expect(api).toHaveLength(2);
    expect(workers()).toHaveLength(1);
    // Both api processes hold connections accepted on the one port.
    expect(await apisServing(2, 15_000)).toEqual(sorted(api));
    expect(output).toContain(`2 api process(es) sharing port ${port} and 1 worker`);
  }, 20_000);

  it('runs the worker at nice 10 (WORKER_NICE unset) and the api processes at nice 0', () => {
    expect(getPriority(start.pid!)).toBe(0);
    expect(workers().map((proc) => getPriority(proc.pid))).toEqual([10]);
    expect(apis().map((proc) => getPriority(proc.pid))).toEqual([0, 0]);
    expect(output).not.toContain("could not lower the worker's priority");
  });

  it('restarts a worker killed with SIGKILL (after 1 s, then 2 s when it dies again) while the api keeps answering /health', async () => {
    const [worker] = workers();
    process.kill(worker.pid, 'SIGKILL');
    await waitFor('the dead worker reaped', () => !workers().some((proc) => proc.pid === worker.pid) || undefined, 5_000);
    expect(await health(port)).toBe(200);
    expect(await health(port)).toBe(200);

    const second = await waitFor('a new worker process', () => remember(workers()).find((proc) => proc.pid !== worker.pid), 10_000);
    // The process may be seen before the supervisor's line about it has reached our pipe.
    await waitFor('the supervisor reporting the second worker', () => output.includes(`[start] worker started (pid ${second.pid})`) || undefined, 5_000);
    expect(output).toContain(`[start] worker started (pid ${second.pid})`);
    expect(getPriority(second.pid)).toBe(10); // a restarted worker is lowered again
    expect(output).toMatch(new RegExp(`\\[start\\] worker \\(pid ${worker.pid}\\) exited \\(signal SIGKILL\\) after [\\d.]+ s; restarting in 1 s \\(restart 1 in a row\\)`));
    expect(workers()).toHaveLength(1);
    expect(await health(port)).toBe(200);

    // Dead again within 60 s: the delay doubles.
    process.kill(second.pid, 'SIGKILL');
    const third = await waitFor('a third worker process', () => remember(workers()).find((proc) => proc.pid !== second.pid), 10_000);
    await waitFor('the supervisor reporting the third worker', () => output.includes(`[start] worker started (pid ${third.pid})`) || undefined, 5_000);
    expect(output).toMatch(new RegExp(`\\[start\\] worker \\(pid ${second.pid}\\) exited \\(signal SIGKILL\\) after [\\d.]+ s; restarting in 2 s \\(restart 2 in a row\\)`));
    expect(output).toContain(`[start] worker started (pid ${third.pid})`);
    expect(getPriority(third.pid)).toBe(10);
    expect(workers()).toHaveLength(1);
    expect(await health(port)).toBe(200);
  }, 30_000);

  it('replaces an api process killed with SIGKILL while the port stays served', async () => {
    const [victim, survivor] = apis();
    process.kill(victim.pid, 'SIGKILL');
    await waitFor('the supervisor noticing the death', () => output.includes(`(pid ${victim.pid}) exited (signal SIGKILL)`) || undefined, 5_000);
    // The surviving api process serves every connection while the replacement boots.
    const statuses: Array<number | string> = [];
    for (let i = 0; i < 10; i++) statuses.push(await health(port));
    expect(statuses).toEqual(Array(10).fill(200));

    const replacement = await waitFor('a new api process', () => remember(apis()).find((proc) => proc.pid !== victim.pid && proc.pid !== survivor.pid), 10_000);
    expect(output).toMatch(new RegExp(`\\[start\\] api#\\d \\(pid ${victim.pid}\\) exited \\(signal SIGKILL\\) after [\\d.]+ s; restarting in 1 s`));
    expect(await apisServing(2, 25_000)).toEqual(sorted([survivor.pid, replacement.pid]));
    expect(getPriority(replacement.pid)).toBe(0);
  }, 35_000);

  it('stops every process gracefully on SIGTERM (the in-flight request finishes), exits 0 and leaves no process behind', async () => {
    const apiPids = apis().map((proc) => proc.pid);
    const running = [...apiPids, ...workers().map((proc) => proc.pid)];
    expect(running).toHaveLength(3);
    // A request in flight: headers sent, body not yet complete.
    const body = '{"first_name":"Ada"}';
    const requestId = `supervisor-${Date.now()}`;
    const { socket, response } = await rawConnection(
      port,
      `POST /v1/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
        `Authorization: Bearer not-a-key\r\nX-Request-ID: ${requestId}\r\n\r\n${body.slice(0, 5)}`,
    );
    openSockets.push(socket);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const serving = await waitFor('an api process holding the request', () => serverSideOwner(apiPids, port, socket.localPort!), 5_000);

    start.kill('SIGTERM');
    await waitFor('the stop request forwarded', () => output.includes('[start] SIGTERM received: stopping') || undefined, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the api processes run their shutdown
    expect(isAlive(serving)).toBe(true);
    socket.write(body.slice(5));
    const answer = await response;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.toLowerCase()).toContain(`x-request-id: ${requestId}`);
    await closed; // the keep-alive connection is closed after its response, it does not hold the stop

    expect(await exited).toEqual({ code: 0, signal: null });
    expect(output).toContain('[start] all processes stopped cleanly');
    for (const pid of running) expect(output).toMatch(new RegExp(`\\(pid ${pid}\\) stopped \\((signal SIGTERM|code 0)\\)`));
    expect(childrenOf(start.pid!)).toEqual([]);
    expect([...seenPids].filter(isAlive)).toEqual([]);
    expect(await health(port)).toBe('ECONNREFUSED');
  }, 30_000);
});
