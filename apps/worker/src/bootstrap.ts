import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { DestinationStream } from 'pino';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig, createRootLogger, PinoNestLogger } from '@leadflow/shared-platform';
import { WorkerModule } from './worker.module';

/**
 * Builds the worker (an application context without HTTP, JSON logs through pino); processors and
 * the outbox relay start on init. `main.ts` adds the signal handling; tests call `close()`.
 * `options.logStream` replaces stdout for the JSON log lines (tests reading the logs).
 */
export async function createWorker(config: AppConfig, clock?: Clock, options: { logStream?: DestinationStream } = {}): Promise<INestApplicationContext> {
  const logger = createRootLogger(config.logLevel, 'worker', options.logStream);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot({ config, clock }), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  await app.init();
  return app;
}
