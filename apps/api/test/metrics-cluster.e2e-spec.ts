import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { createTestServices, TestServices } from '@leadflow/shared-testing';
import { sampleValue } from './support/prometheus-text';

/**
 * `GET /metrics` under `npm start` (issue 17, item 1): the api runs as API_PROCESSES cluster workers behind one
 * socket owned by the primary (tools/scripts/start.mjs), which hands new connections to them in turn. A scrape
 * reaches one process, yet answers the sum over all of them (tools/scripts/cluster-metrics.mjs and
 * ClusterMetricsWorker): N requests on N fresh connections, spread over 2 processes, count N in every scrape,
 * whichever process answers it, with `leadflow_api_processes` 2.
 */
const ROOT = join(__dirname, '..', '..', '..');
const TOKEN = 'cluster-metrics-token';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** GET on a fresh connection (no keep-alive): status and body, or null when nothing answers. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false, timeout: 10_000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end();
  });
}

function childrenOf(ppid: number): number[] {
  try {
    return execFileSync('ps', ['--ppid', String(ppid), '-o', 'pid='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
  } catch {
    return [];
  }
}

describe('GET /metrics under npm start sums every api process (cluster)', () => {
  let services: TestServices;
  let port: number;
  let start: ChildProcess;
  let exited: Promise<unknown>;
  let output = '';
  const seen = new Set<number>();
  const auth = { authorization: `Bearer ${TOKEN}` };

  const scrape = async () => {
    const response = await get(port, '/metrics', auth);
    expect(response?.status).toBe(200);
    return response!.body;
  };

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
      METRICS_TOKEN: TOKEN,
      LOG_LEVEL: 'warn',
    };
    delete env.ADMIN_TOKEN;
    delete env.PUBLIC_BASE_URL;
    delete env.WORKER_METRICS_PORT;
    delete env.WORKER_HEALTH_PORT;
    start = spawn(process.execPath, ['tools/scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    exited = new Promise((resolve) => start.once('exit', resolve));
    start.stdout!.on('data', (data: Buffer) => (output += data.toString()));
    start.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    // Both api processes announce themselves to the primary before they listen: wait until a scrape covers 2.
    const deadline = Date.now() + 90_000;
    for (;;) {
      for (const pid of childrenOf(start.pid!)) seen.add(pid);
      const response = await get(port, '/metrics', auth);
      if (response?.status === 200 && sampleValue(response.body, 'leadflow_api_processes') === 2) break;
      if (Date.now() > deadline || start.exitCode !== null) throw new Error(`npm start did not get 2 api processes scraped:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 120_000);

  afterAll(async () => {
    if (start && start.exitCode === null && start.signalCode === null) {
      start.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    }
    for (const pid of [...seen, ...(start?.pid ? childrenOf(start.pid) : [])]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (start?.exitCode === null) start.kill('SIGKILL');
    start?.stdout?.destroy();
    start?.stderr?.destroy();
    await services?.dispose();
  }, 40_000);

  it('N requests on N new connections (round-robin over 2 processes) count N in every scrape, and the scrape says it covers 2 processes', async () => {
    const count = (text: string) => sampleValue(text, 'leadflow_http_requests_total', { method: 'GET', route: '/health/live', status: '200' }) ?? 0;
    const before = await scrape();
    for (let i = 0; i < 10; i++) expect((await get(port, '/health/live'))?.status).toBe(200);
    // Several scrapes, on new connections: each lands on either process and must see the same sum.
    for (let i = 0; i < 4; i++) {
      const text = await scrape();
      expect(count(text) - count(before)).toBe(10);
      expect(sampleValue(text, 'leadflow_api_processes')).toBe(2);
      expect(text).not.toContain('did not answer');
    }
  });

  it('the token is still enforced through the cluster path: 401 without it', async () => {
    const refused = await get(port, '/metrics');
    expect(refused?.status).toBe(401);
  });
});
