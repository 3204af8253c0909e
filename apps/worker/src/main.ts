import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AppConfig, ConfigError, createRootLogger } from '@leadflow/shared-platform';
import { createWorker } from './bootstrap';

/**
 * worker app entry point. Runs until SIGINT or SIGTERM, then shuts down in order: the outbox relay
 * stops polling, every processor stops taking jobs and lets its active jobs finish, then queues,
 * Redis and PostgreSQL close, and the process exits 0. A second signal during shutdown is ignored.
 */
async function main(): Promise<void> {
  const config = new AppConfig();
  const app = await createWorker(config);
  const logger = new Logger('Worker');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => logger.log({ signal }, 'Shutdown requested'));
  }
  process.once('exit', (code) => logger.log({ code }, 'Worker stopped'));
  app.enableShutdownHooks(['SIGINT', 'SIGTERM'], { useProcessExit: true });
  // Run by `npm start` (tools/scripts/start.mjs) with an IPC channel: if that supervisor disappears, shut down too.
  if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  logger.log({ pid: process.pid }, 'Worker started');
  // Tells `npm start` the worker is ready (it prints its closing block once every app process is).
  process.send?.({ type: 'leadflow:ready' });
}

main().catch((error: unknown) => {
  // A bad environment variable: its one-line reason(s), exit EX_CONFIG (`npm start` does not restart on it).
  if (error instanceof ConfigError) {
    for (const problem of error.problems) console.error(`[worker] invalid configuration: ${problem}`);
    process.exit(ConfigError.EXIT_CODE);
  }
  createRootLogger(process.env.LOG_LEVEL ?? 'info', 'worker').fatal({ err: error }, 'Worker failed to start');
  process.exit(1);
});
