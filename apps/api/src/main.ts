import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AppConfig, createRootLogger } from '@leadflow/shared-platform';
import { createApiApp } from './bootstrap';

/**
 * api app entry point: listens on HOST:PORT. SIGINT/SIGTERM (`enableShutdownHooks` in bootstrap)
 * close it gracefully: Fastify stops accepting connections and lets in-flight requests finish, then
 * Redis and the PostgreSQL pool close and the process ends by the same signal.
 */
async function main(): Promise<void> {
  const config = new AppConfig();
  const app = await createApiApp(config);
  const logger = new Logger('Api');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => logger.log({ signal }, 'Shutdown requested'));
  }
  // Run by `npm start` (tools/scripts/start.mjs) with an IPC channel: if that supervisor disappears, shut down too.
  if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  createRootLogger(process.env.LOG_LEVEL ?? 'info', 'api').fatal({ err: error }, 'Api failed to start');
  process.exit(1);
});
