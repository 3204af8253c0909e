import { ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { createTestServices, TestServices } from '@leadflow/shared-testing';

/**
 * What a person sees on `npm start` (issue 18, item 5; tools/scripts/start.mjs): on a database without
 * accounts and with no LOG_LEVEL, boot logs stay at `warn` (no info JSON line), and the last lines of
 * stdout, printed once the api and the worker are ready, are the closing block with the demo keys, a
 * "try it" block and where to read how to make a new key. The printed key works.
 */
const ROOT = join(__dirname, '..', '..', '..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** GET `path` with a bearer key: the status. */
function getStatus(port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, agent: false, headers: { authorization: `Bearer ${key}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

describe('npm start output: keys last, boot logs at warn', () => {
  let services: TestServices;
  let port: number;
  let start: ChildProcess;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let stdout = '';
  let stderr = '';

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
      API_PROCESSES: '1',
      STOP_TIMEOUT_MS: '15000',
    };
    // As a person runs it: no LOG_LEVEL, no NODE_ENV=test (which would silence the logs), the demo seeded.
    for (const name of ['LOG_LEVEL', 'NODE_ENV', 'SEED_DEMO', 'SEED_LOG_LEVEL', 'ADMIN_TOKEN', 'PUBLIC_BASE_URL', 'READY_TIMEOUT_MS']) delete env[name];
    start = spawn(process.execPath, ['tools/scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    exited = new Promise((resolve) => start.once('exit', (code, signal) => resolve({ code, signal })));
    start.stdout!.on('data', (data: Buffer) => (stdout += data.toString()));
    start.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
    await waitFor('the closing block of npm start', () => /^Logs: .*$/m.test(stdout), 150_000);
  }, 180_000);

  afterAll(async () => {
    // START_OUTPUT_TEST_LOG=<file>: keep the output for diagnosis.
    if (process.env.START_OUTPUT_TEST_LOG) writeFileSync(process.env.START_OUTPUT_TEST_LOG, `${stdout}\n--- stderr ---\n${stderr}`);
    if (start?.exitCode === null && start.signalCode === null) start.kill('SIGKILL');
    await services?.dispose();
  });

  it('the last lines of stdout are the closing block: ready, the demo keys, try it, how to make a new key; nothing after it', async () => {
    const settled = stdout;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(stdout).toBe(settled);
    const lines = stdout.trimEnd().split('\n');
    const from = lines.findIndex((line) => line.startsWith('Leadflow is ready at '));
    expect(from).toBeGreaterThan(0);
    const block = lines.slice(from);
    expect(block[0]).toBe(`Leadflow is ready at http://127.0.0.1:${port} (1 api process and 1 worker; Ctrl-C stops them all).`);
    expect(block).toEqual([
      block[0],
      '',
      expect.stringMatching(/^Demo account "Rénovations Lavoie & Fils" \(account_id [0-9a-f-]{36}\)\. Its API keys, shown this once/),
      expect.stringMatching(/^ {2}full {5}\S+$/),
      expect.stringMatching(/^ {2}capture {2}\S+$/),
      '',
      'Try it:',
      expect.stringMatching(/^ {2}export LEADFLOW_KEY=\S+$/),
      `  curl -s http://127.0.0.1:${port}/v1/me -H "Authorization: Bearer $LEADFLOW_KEY"`,
      `  curl -s http://127.0.0.1:${port}/v1/pipeline/stages -H "Authorization: Bearer $LEADFLOW_KEY"`,
      '',
      'Lost the keys? Create one with the operator API: README.md, "Trying the API", "A new API key".',
      'Logs: warn and above (LOG_LEVEL=info npm start also shows the boot and one line per request).',
    ]);
    // Every line before the block is a `[start]` line of the supervisor (no app log at info).
    expect(lines.slice(0, from).filter((line) => line !== '' && !line.startsWith('[start] '))).toEqual([]);
    const full = block[3].trim().split(/\s+/)[1];
    expect(block[7]).toBe(`  export LEADFLOW_KEY=${full}`);
    expect(await getStatus(port, '/v1/me', full)).toBe(200);
    expect(await getStatus(port, '/v1/me', block[4].trim().split(/\s+/)[1])).toBe(200);
  });

  it('keeps boot logs at warn when LOG_LEVEL is unset: no info-level JSON line on stdout or stderr', () => {
    const json = `${stdout}\n${stderr}`
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number });
    expect(json.filter((entry) => entry.level < 40)).toEqual([]);
  });

  it('SIGTERM still stops everything cleanly (exit 0)', async () => {
    start.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stdout).toContain('[start] all processes stopped cleanly');
  }, 30_000);
});
