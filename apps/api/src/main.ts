import 'reflect-metadata';
import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import { AppConfig, ConfigError, createRootLogger } from '@leadflow/shared-platform';
import { createApiApp } from './bootstrap';

/** During shutdown, how often idle keep-alive connections are closed (ms). */
const IDLE_CLOSE_INTERVAL_MS = 100;

/**
 * api app entry point: listens on HOST:PORT. `npm start` runs several of these as cluster workers
 * sharing the port (tools/scripts/start.mjs); run alone, it listens by itself. SIGINT/SIGTERM
 * (`enableShutdownHooks` in bootstrap) close it gracefully: Fastify stops accepting connections and
 * lets in-flight requests finish, then Redis and the PostgreSQL pool close and the process ends by
 * the same signal. From the signal on, keep-alive connections are closed as soon as they are idle
 * (checked every IDLE_CLOSE_INTERVAL_MS), so a client holding one open does not delay the stop.
 */
async function main(): Promise<void> {
  const config = new AppConfig();
  const app = await createApiApp(config);
  const logger = new Logger('Api');
  const server = app.getHttpServer() as Server;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.log({ signal, pid: process.pid }, 'Shutdown requested');
      // Node's server.close() closes only the connections idle at that moment; a connection whose
      // request was in flight would otherwise stay open (keep-alive) after its response.
      setInterval(() => server.closeIdleConnections(), IDLE_CLOSE_INTERVAL_MS).unref();
    });
  }
  // Run by `npm start` (tools/scripts/start.mjs) with an IPC channel: if that supervisor disappears, shut down too
  // (as a cluster worker, Node's cluster module already exits the process when the channel is lost).
  if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  logger.log({ pid: process.pid }, 'Api started');
}

main().catch((error: unknown) => {
  // A bad environment variable: its one-line reason(s), exit EX_CONFIG (`npm start` does not restart on it).
  if (error instanceof ConfigError) {
    for (const problem of error.problems) console.error(`[api] invalid configuration: ${problem}`);
    process.exit(ConfigError.EXIT_CODE);
  }
  createRootLogger(process.env.LOG_LEVEL ?? 'info', 'api').fatal({ err: error }, 'Api failed to start');
  process.exit(1);
});
