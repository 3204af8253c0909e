import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const WORKER_ENTRY = 'apps/worker/src/main.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An exit the supervisor reported: `[start] <label> (pid N) exited (<how>) after …`. */
export interface ReportedExit {
  label: string;
  pid: number;
  how: string;
}

/**
 * The service as `npm start` runs it: `node tools/scripts/start.mjs` (database created and migrated,
 * then API_PROCESSES api processes and one worker, each restarted with backoff when it dies), in a
 * process group of its own so that a failed test can still take every process of it down. Its output
 * is kept: every `[start]` line, and the last 3000 other lines (the apps' JSON logs).
 */
export class SupervisedService {
  readonly startLines: string[] = [];
  /** When each `[start]` line arrived (ms since the epoch), index for index with `startLines`. */
  readonly startLineTimes: number[] = [];
  readonly appLines: string[] = [];
  /** Warnings and errors of the apps (pino JSON, level ≥ 40), counted by `<app> <level>: <msg>` over the whole run. */
  readonly problems = new Map<string, number>();
  private readonly child: ChildProcess;
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  constructor(
    readonly port: number,
    env: Record<string, string | undefined>,
  ) {
    this.child = spawn(process.execPath, ['tools/scripts/start.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let partial = '';
    const keep = (data: Buffer) => {
      const lines = (partial + data.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.length === 0) continue;
        if (line.startsWith('[start]')) {
          this.startLines.push(line);
          this.startLineTimes.push(Date.now());
        }
        else {
          this.appLines.push(line);
          this.countProblem(line);
        }
      }
      if (this.appLines.length > 3000) this.appLines.splice(0, this.appLines.length - 3000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.exit === null;
  }

  /**
   * Resolves once `GET /health` answers 200 (PostgreSQL and Redis reachable), the worker was started and
   * `workerReady()` (a probe of the caller's: the worker's queue consumers connected) says so.
   */
  async waitUntilReady(timeoutMs: number, workerReady: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.alive) throw new Error(`npm start exited (${JSON.stringify(this.exit)}) before the service was ready\n${this.diagnostics()}`);
      const status = await fetch(`http://127.0.0.1:${this.port}/health`, { signal: AbortSignal.timeout(2000) }).then(
        (response) => response.status,
        () => 0,
      );
      const worker = status === 200 && this.currentWorkerPid() !== undefined && (await workerReady().catch(() => false));
      if (worker) return;
      if (Date.now() > deadline) throw new Error(`the service was not ready after ${timeoutMs} ms (last /health: ${status}, worker ready: ${worker})\n${this.diagnostics()}`);
      await pause(250);
    }
  }

  /** Pid of the worker the supervisor started last (its `[start] worker started (pid N)` line). */
  currentWorkerPid(): number | undefined {
    for (let index = this.startLines.length - 1; index >= 0; index--) {
      const match = /^\[start\] worker started \(pid (\d+)\)/.exec(this.startLines[index]);
      if (match) return Number(match[1]);
    }
    return undefined;
  }

  /**
   * SIGKILL of the current worker process, then waits for the supervisor to start its replacement. The
   * target is the pid of the last `worker started` line, once it is alive as this supervisor's child
   * running the worker entry point (a worker that died on its own is waited for until its replacement
   * runs). Returns both pids.
   */
  async killWorker(timeoutMs = 30_000): Promise<{ killed: number; replacement: number }> {
    const deadline = Date.now() + timeoutMs;
    let killed: number | undefined;
    while (killed === undefined) {
      const candidate = this.currentWorkerPid();
      if (candidate !== undefined && this.isOwnWorker(candidate)) killed = candidate;
      else if (Date.now() > deadline) throw new Error(`no live worker to kill (last started: pid ${candidate})\n${this.diagnostics()}`);
      else await pause(100);
    }
    process.kill(killed, 'SIGKILL');
    for (;;) {
      const replacement = this.currentWorkerPid();
      if (replacement !== undefined && replacement !== killed) return { killed, replacement };
      if (Date.now() > deadline + timeoutMs) throw new Error(`no worker restarted ${timeoutMs} ms after killing ${killed}\n${this.diagnostics()}`);
      await pause(100);
    }
  }

  /** When the supervisor reported `<label> started (pid N)` for `pid` (ms since the epoch), if it did. */
  startedAt(pid: number): number | undefined {
    const index = this.startLines.findIndex((line) => new RegExp(`^\\[start\\] \\S+ started \\(pid ${pid}\\)`).test(line));
    return index === -1 ? undefined : this.startLineTimes[index];
  }

  /** When the supervisor reported a restarted `pid` ready (`<label> (pid N) ready after …`; ms since the epoch), if it did. */
  readyAt(pid: number): number | undefined {
    const index = this.startLines.findIndex((line) => new RegExp(`^\\[start\\] \\S+ \\(pid ${pid}\\) ready after`).test(line));
    return index === -1 ? undefined : this.startLineTimes[index];
  }

  /**
   * The first `<label> (pid N) ready after …` line reported at or after `since` (ms since the epoch): when
   * and which pid (a replacement that died before it was ready is skipped for the next one).
   */
  readyAfter(label: string, since: number): { pid: number; at: number } | undefined {
    const pattern = new RegExp(`^\\[start\\] ${label} \\(pid (\\d+)\\) ready after`);
    for (let index = 0; index < this.startLines.length; index++) {
      const match = pattern.exec(this.startLines[index]);
      if (match && this.startLineTimes[index] >= since) return { pid: Number(match[1]), at: this.startLineTimes[index] };
    }
    return undefined;
  }

  /**
   * The apps' warnings and errors (JSON lines, level ≥ 40) whose message matches `pattern`, with the time
   * each line carries (ms since the epoch) and its fields.
   */
  warnings(pattern: RegExp): { at: number; entry: Record<string, unknown> }[] {
    return this.appLines.flatMap((line) => {
      if (!/^\{"level":([4-9]\d)/.test(line)) return [];
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        return pattern.test(String(entry.msg ?? '')) ? [{ at: Date.parse(String(entry.time)), entry }] : [];
      } catch {
        return [];
      }
    });
  }

  /** The warnings and errors of the whole run, counted by `<app> <level>: <msg>`, most frequent first (one per line). */
  problemSummary(): string {
    const entries = [...this.problems.entries()].sort((a, b) => b[1] - a[1]);
    return entries.length === 0 ? '(no warning or error logged)' : entries.map(([key, count]) => `${String(count).padStart(5)} × ${key}`).join('\n');
  }

  /**
   * SIGKILL of one api process (the one the supervisor started last among those still alive: `api#N
   * started (pid P)`), then waits for the supervisor to start its replacement. Returns both pids.
   */
  async killApi(timeoutMs = 30_000): Promise<{ killed: number; replacement: number }> {
    const apiStarts = () =>
      this.startLines.map((line) => /^\[start\] (api#\d+) started \(pid (\d+)\)/.exec(line)).filter((match): match is RegExpExecArray => match !== null);
    const alive = apiStarts().filter((match) => {
      try {
        process.kill(Number(match[2]), 0);
        return true;
      } catch {
        return false;
      }
    });
    const target = alive.at(-1);
    if (!target) throw new Error(`no live api process to kill\n${this.diagnostics()}`);
    const [, slot, pidText] = target;
    const killed = Number(pidText);
    process.kill(killed, 'SIGKILL');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const replacement = apiStarts().filter((match) => match[1] === slot).at(-1);
      if (replacement && Number(replacement[2]) !== killed) return { killed, replacement: Number(replacement[2]) };
      if (Date.now() > deadline) throw new Error(`no ${slot} restarted ${timeoutMs} ms after killing ${killed}\n${this.diagnostics()}`);
      await pause(100);
    }
  }

  /** Whether `pid` is alive, a child of this supervisor, and runs the worker entry point. */
  private isOwnWorker(pid: number): boolean {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return state !== 'Z' && Number(parent) === this.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(WORKER_ENTRY);
    } catch {
      return false; // gone
    }
  }

  /** Every death the supervisor reported (after start, before a stop request). */
  reportedExits(): ReportedExit[] {
    return this.startLines
      .map((line) => /^\[start\] (\S+) \(pid (\d+)\) exited \(([^)]*)\)/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => ({ label: match[1], pid: Number(match[2]), how: match[3] }));
  }

  /** SIGTERM (graceful stop of every process), SIGKILL of the whole process group after `timeoutMs`. Never throws. */
  async stop(timeoutMs = 20_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.alive) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.killGroup(), timeoutMs);
      await this.exited;
      clearTimeout(timer);
    }
    // Anything of the group still there (a stop that did not finish) goes too.
    this.killGroup();
    return this.exit!;
  }

  /** The `[start]` lines, then the last warnings and errors of the apps. */
  diagnostics(lines = 25): string {
    const notable = this.appLines.filter((line) => !/^\{"level":(10|20|30),/.test(line)).slice(-lines);
    return ['--- npm start', ...this.startLines.slice(-40), '--- apps (warnings and errors)', ...notable].join('\n');
  }

  private countProblem(line: string): void {
    if (!/^\{"level":([4-9]\d)/.test(line)) return;
    try {
      const entry = JSON.parse(line) as { level: number; app?: string; msg?: string; err?: { message?: string } };
      const level = entry.level >= 60 ? 'fatal' : entry.level >= 50 ? 'error' : 'warn';
      const key = `${entry.app ?? '?'} ${level}: ${entry.msg ?? entry.err?.message?.slice(0, 120) ?? '(no message)'}`;
      this.problems.set(key, (this.problems.get(key) ?? 0) + 1);
    } catch {
      // not one JSON line
    }
  }

  private killGroup(): void {
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      // the group is gone
    }
  }
}
