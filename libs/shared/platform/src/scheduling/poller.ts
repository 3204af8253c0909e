import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/** What a {@link Poller} runs, and when. */
export interface PollerOptions {
  /** Names the loop in its log lines (`Outbox relay`, `Automation sweep`…). */
  name: string;
  /** Pause between the end of a pass and the start of the next (ms). */
  intervalMs: number;
  /** Pause before the first pass after `start()` (ms); `intervalMs` by default. */
  initialDelayMs?: number;
  /**
   * Up to this fraction of every pause is added at random (0 to 1, default 0), so that workers started
   * together do not poll in step.
   */
  jitter?: number;
  /**
   * One pass. A number returned is the pause before the next pass instead of `intervalMs` (0 to go on
   * at once with a backlog, a backoff after a failure it handled itself).
   */
  pass: () => Promise<number | void>;
  /**
   * Called when `pass` throws; a number returned is the pause before the next pass. By default the error
   * is logged as a warning (`<name> pass failed`) and the next pass comes after `intervalMs`.
   */
  onError?: (error: unknown) => number | void;
  /**
   * Each pass runs under this PostgreSQL session advisory lock (`pg_try_advisory_lock`), on a connection
   * of its own held for the pass: while another process holds it the pass is skipped, so one process at a
   * time runs it across workers.
   */
  advisoryLock?: { dataSource: DataSource; key: number };
  /** True keeps the process alive while a pass is pending; timers are unref'd by default. */
  keepAlive?: boolean;
}

/**
 * The one polling loop of the platform (outbox relay, outbox reconciler, automation sweeper, webhook
 * sweeper): `start()` schedules passes with `setTimeout`, each pass scheduled when the previous one has
 * ended (never two at once in a process: single flight), with an optional random jitter and advisory
 * lock; a failed pass is logged and the loop goes on. `stop()` clears the pending timer and waits for the
 * pass in progress (graceful shutdown). Not a Nest provider: each service owns one and starts it in
 * `onApplicationBootstrap`, stops it in `onModuleDestroy`.
 */
export class Poller {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private running = false;

  constructor(private readonly options: PollerOptions) {
    this.logger = new Logger(options.name);
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts the loop (idempotent): the first pass after `initialDelayMs`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(this.options.initialDelayMs ?? this.options.intervalMs);
  }

  /** Stops the loop: no pass starts after this; resolves once the pass in progress, if any, has ended. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  /**
   * Runs a pass now, outside the schedule, unless one is in progress (then waits for that one): single
   * flight. Errors go to `onError` like a scheduled pass's. Resolves when the pass has ended.
   */
  runNow(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.runPass();
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    const jitter = this.options.jitter ? Math.random() * this.options.jitter * delayMs : 0;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runPass();
    }, delayMs + jitter);
    if (!this.options.keepAlive) this.timer.unref();
  }

  private runPass(): Promise<void> {
    const pass = (async () => {
      let next: number | void;
      try {
        next = await this.locked();
      } catch (error) {
        next = this.failed(error);
      }
      return typeof next === 'number' ? next : this.options.intervalMs;
    })();
    this.inFlight = pass.then(
      (delay) => {
        this.inFlight = null;
        this.schedule(delay);
      },
      () => undefined, // `pass` never rejects: errors went to `failed`
    );
    return this.inFlight;
  }

  private failed(error: unknown): number | void {
    if (this.options.onError) {
      try {
        return this.options.onError(error);
      } catch (handlerError) {
        error = handlerError;
      }
    }
    this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, `${this.options.name} pass failed`);
    return undefined;
  }

  /** The pass, under the advisory lock when there is one (skipped while another process holds it). */
  private async locked(): Promise<number | void> {
    const lock = this.options.advisoryLock;
    if (!lock) return this.options.pass();
    const runner = lock.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [lock.key])) as { locked: boolean }[];
      if (!locked) return undefined;
      try {
        return await this.options.pass();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [lock.key]);
      }
    } finally {
      await runner.release();
    }
  }
}
