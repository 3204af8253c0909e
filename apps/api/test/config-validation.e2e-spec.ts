import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Issue 17 › Validated configuration: a bad environment variable stops `npm start` (tools/scripts/start.mjs)
 * and each app run alone at boot with one line naming the variable, the value and what is expected, and a
 * non-zero exit (78, EX_CONFIG), without restarting anything. Nothing is connected before the check.
 */
const ROOT = join(__dirname, '..', '..', '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], overrides: Record<string, string>): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, SWCRC: 'true', API_PROCESSES: '1', ...overrides };
  delete env.LEADFLOW_SUPERVISED;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line.trim().length > 0);

describe('Validated configuration at start', () => {
  it('npm start with PORT=abc exits non-zero printing one line: PORT=abc: expected an integer between 1 and 65535', async () => {
    const result = await run(['tools/scripts/start.mjs'], { PORT: 'abc' });
    expect(result.code).toBe(78);
    expect(lines(result.stderr)).toEqual(['[start] invalid configuration: PORT=abc: expected an integer between 1 and 65535']);
    expect(result.stdout).not.toMatch(/started \(pid|restarting/);
  }, 60_000);

  it('npm start lists every bad variable, one line each (OUTBOX_RELAY_BATCH_SIZE=-5, EMAIL_RETRY_DELAY_MS="")', async () => {
    const result = await run(['tools/scripts/start.mjs'], { OUTBOX_RELAY_BATCH_SIZE: '-5', EMAIL_RETRY_DELAY_MS: '' });
    expect(result.code).toBe(78);
    expect(lines(result.stderr)).toEqual([
      '[start] invalid configuration: OUTBOX_RELAY_BATCH_SIZE=-5: expected an integer between 1 and 10000',
      '[start] invalid configuration: EMAIL_RETRY_DELAY_MS="": expected an integer >= 1',
    ]);
  }, 60_000);

  it('the api and the worker run alone stop the same way (PORT=abc, LOG_LEVEL=loud)', async () => {
    const api = await run(['-r', '@swc-node/register', 'apps/api/src/main.ts'], { PORT: 'abc' });
    expect(api.code).toBe(78);
    expect(lines(api.stderr)).toEqual(['[api] invalid configuration: PORT=abc: expected an integer between 1 and 65535']);
    const worker = await run(['-r', '@swc-node/register', 'apps/worker/src/main.ts'], { LOG_LEVEL: 'loud' });
    expect(worker.code).toBe(78);
    expect(lines(worker.stderr)).toEqual(['[worker] invalid configuration: LOG_LEVEL=loud: expected one of trace, debug, info, warn, error, fatal, silent']);
  }, 120_000);
});
