import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Issue 11 (hot path): `npm start` (tools/scripts/start.mjs) runs the worker at nice WORKER_NICE, an
 * integer from 0 to 19 (default 10). Any other value stops start.mjs at once, before the database is
 * prepared or any process started: exit code 1 and one `[start]` line naming WORKER_NICE and the value.
 * (The priorities of a running supervisor are checked in supervisor.e2e-spec.ts.)
 */
const ROOT = join(__dirname, '..', '..', '..');

function start(overrides: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  // An unreachable database: were the value let through, the preparation would fail differently (never exit 1 with this line).
  const env: NodeJS.ProcessEnv = { ...process.env, API_PROCESSES: '1', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', ...overrides };
  delete env.LEADFLOW_SUPERVISED;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['tools/scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('npm start: WORKER_NICE is validated before anything starts', () => {
  it('WORKER_NICE=42 exits with code 1 and one line naming WORKER_NICE, the value and the range', async () => {
    const result = await start({ WORKER_NICE: '42' });
    expect(result).toMatchObject({ code: 1, signal: null, stderr: '' });
    expect(result.stdout.split('\n').filter((line) => line.trim() !== '')).toEqual(['[start] WORKER_NICE must be an integer from 0 to 19 (got "42")']);
  });

  it('WORKER_NICE below 0, fractional or not a number is refused the same way', async () => {
    for (const value of ['-1', '2.5', 'low']) {
      const result = await start({ WORKER_NICE: value });
      expect(result.code).toBe(1);
      expect(result.stdout.trim()).toBe(`[start] WORKER_NICE must be an integer from 0 to 19 (got ${JSON.stringify(value)})`);
    }
  }, 30_000);
});
