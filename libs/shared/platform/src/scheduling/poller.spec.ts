import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { Poller } from './poller';

/** The real setTimeout, kept before any test spies on the global one. */
const nativeSetTimeout = setTimeout;
const sleep = (ms: number) => new Promise((resolve) => nativeSetTimeout(resolve, ms));

/** Resolves when `condition` holds (polling every 2 ms), fails after 2 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await sleep(2);
  }
}

describe('Poller (the platform polling loop)', () => {
  let poller: Poller | null = null;
  afterEach(async () => {
    await poller?.stop();
    poller = null;
    jest.restoreAllMocks();
  });

  it('runs a pass every interval after the initial delay, and none after stop()', async () => {
    let passes = 0;
    poller = new Poller({ name: 'Test loop', intervalMs: 5, initialDelayMs: 0, pass: async () => void (passes += 1) });
    poller.start();
    poller.start(); // idempotent
    await until(() => passes >= 3);
    await poller.stop();
    const stoppedAt = passes;
    await sleep(30);
    expect(passes).toBe(stoppedAt);
    expect(poller.isRunning).toBe(false);
  });

  it('single flight: passes never overlap, and runNow() during a pass waits for that pass instead of starting another', async () => {
    let concurrent = 0;
    let maxConcurrent = 0;
    let passes = 0;
    let release: () => void = () => undefined;
    poller = new Poller({
      name: 'Test loop',
      intervalMs: 1,
      initialDelayMs: 0,
      pass: async () => {
        concurrent += 1;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        passes += 1;
        await new Promise<void>((resolve) => (release = resolve));
        concurrent -= 1;
      },
    });
    poller.start();
    await until(() => passes === 1);
    const first = poller.runNow();
    const second = poller.runNow();
    expect(first).toBe(second);
    release();
    await first;
    expect(passes).toBe(1);
    await until(() => passes === 2);
    release();
    expect(maxConcurrent).toBe(1);
  });

  it('graceful stop: stop() resolves only once the pass in progress has ended', async () => {
    let ended = false;
    poller = new Poller({
      name: 'Test loop',
      intervalMs: 1000,
      initialDelayMs: 0,
      pass: async () => {
        await sleep(30);
        ended = true;
      },
    });
    poller.start();
    await sleep(5);
    await poller.stop();
    expect(ended).toBe(true);
  });

  it('a number returned by the pass is the next pause (0 for a backlog), instead of the interval', async () => {
    const delays: number[] = [];
    const realSetTimeout = global.setTimeout;
    jest.spyOn(global, 'setTimeout').mockImplementation(((callback: () => void, ms: number) => {
      delays.push(ms);
      return realSetTimeout(callback, Math.min(ms, 1));
    }) as typeof setTimeout);
    let passes = 0;
    poller = new Poller({ name: 'Test loop', intervalMs: 50, initialDelayMs: 7, pass: async () => (++passes < 3 ? 0 : undefined) });
    poller.start();
    await until(() => passes >= 3);
    await poller.stop();
    expect(delays.slice(0, 4)).toEqual([7, 0, 0, 50]);
  });

  it('jitter adds up to that fraction of the pause at random', async () => {
    const delays: number[] = [];
    const realSetTimeout = global.setTimeout;
    jest.spyOn(global, 'setTimeout').mockImplementation(((callback: () => void, ms: number) => {
      delays.push(ms);
      return realSetTimeout(callback, 1000);
    }) as typeof setTimeout);
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    poller = new Poller({ name: 'Test loop', intervalMs: 100, jitter: 0.2, pass: async () => undefined });
    poller.start();
    expect(delays).toEqual([110]);
  });

  it('timers are unref\'d (a pending pass never keeps the process alive) unless keepAlive', () => {
    const timers: NodeJS.Timeout[] = [];
    const realSetTimeout = global.setTimeout;
    jest.spyOn(global, 'setTimeout').mockImplementation(((callback: () => void, ms: number) => {
      const timer = realSetTimeout(callback, ms);
      timers.push(timer);
      return timer;
    }) as typeof setTimeout);
    poller = new Poller({ name: 'Test loop', intervalMs: 10_000, pass: async () => undefined });
    poller.start();
    const kept = new Poller({ name: 'Kept loop', intervalMs: 10_000, pass: async () => undefined, keepAlive: true });
    kept.start();
    expect(timers.map((timer) => timer.hasRef())).toEqual([false, true]);
    void kept.stop();
  });

  it('a failing pass is logged and the loop goes on; onError can set the next pause', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    let passes = 0;
    poller = new Poller({
      name: 'Test loop',
      intervalMs: 2,
      initialDelayMs: 0,
      pass: async () => {
        passes += 1;
        throw new Error('database down');
      },
    });
    poller.start();
    await until(() => passes >= 2);
    await poller.stop();
    expect(warn).toHaveBeenCalledWith({ err: 'database down' }, 'Test loop pass failed');

    const errors: unknown[] = [];
    const backoffs = new Poller({
      name: 'Backoff loop',
      intervalMs: 1000,
      initialDelayMs: 0,
      pass: async () => {
        throw new Error('redis down');
      },
      onError: (error) => {
        errors.push(error);
        return 1; // retry soon instead of after the interval
      },
    });
    backoffs.start();
    await until(() => errors.length >= 2);
    await backoffs.stop();
  });

  describe('advisory lock', () => {
    /** A DataSource whose query runner answers pg_try_advisory_lock with `granted`. */
    function fakeDataSource(granted: boolean) {
      const queries: string[] = [];
      let released = 0;
      const dataSource = {
        createQueryRunner: () => ({
          connect: async () => undefined,
          query: async (sql: string) => {
            queries.push(sql);
            return sql.includes('pg_try_advisory_lock') ? [{ locked: granted }] : [{}];
          },
          release: async () => void (released += 1),
        }),
      } as unknown as DataSource;
      return { dataSource, queries, released: () => released };
    }

    it('runs the pass under pg_try_advisory_lock and unlocks after it, on one connection released afterwards', async () => {
      const db = fakeDataSource(true);
      let passes = 0;
      poller = new Poller({ name: 'Locked loop', intervalMs: 1000, advisoryLock: { dataSource: db.dataSource, key: 42 }, pass: async () => void (passes += 1) });
      await poller.runNow();
      expect(passes).toBe(1);
      expect(db.queries).toEqual(['SELECT pg_try_advisory_lock($1) AS locked', 'SELECT pg_advisory_unlock($1)']);
      expect(db.released()).toBe(1);
    });

    it('skips the pass while another process holds the lock', async () => {
      const db = fakeDataSource(false);
      let passes = 0;
      poller = new Poller({ name: 'Locked loop', intervalMs: 1000, advisoryLock: { dataSource: db.dataSource, key: 42 }, pass: async () => void (passes += 1) });
      await poller.runNow();
      expect(passes).toBe(0);
      expect(db.queries).toEqual(['SELECT pg_try_advisory_lock($1) AS locked']);
      expect(db.released()).toBe(1);
    });
  });
});
