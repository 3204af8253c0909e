import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig, createRootLogger, fastifyServerOptions, IdempotencyInterceptor, installHttpContract, installReadRouting, interceptPostRoutes, PinoNestLogger } from '@leadflow/shared-platform';
import { AppModule } from './app.module';
// Metrics (issue 17, item 1): the onResponse hook and GET /metrics.
import { installHttpMetrics } from '@leadflow/shared-platform';

export interface CreateApiAppOptions {
  /** Modules imported beside the contexts' HTTP modules (tests only: e.g. a controller exercising the platform). */
  extraModules?: NonNullable<DynamicModule['imports']>;
  /** Where the JSON log lines go instead of stdout (tests reading the logs). */
  logStream?: DestinationStream;
}

/**
 * Builds the api application (not listening): Fastify with the request-id and legacy-prefix options,
 * the AppModule, and the cross-cutting HTTP contract. Used by `main.ts` and by end-to-end tests.
 */
export async function createApiApp(config: AppConfig, clock?: Clock, options: CreateApiAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config.logLevel, 'api', options.logStream);
  const adapter = new FastifyAdapter({ ...fastifyServerOptions(config), loggerInstance: logger });
  const root = AppModule.forRoot({ config, clock });
  const extra = options.extraModules ?? [];
  const module: DynamicModule = extra.length > 0 ? { ...root, imports: [...(root.imports ?? []), ...extra] } : root;
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
    bodyParser: false,
    abortOnError: false,
  });
  installHttpContract(app);
  installHttpMetrics(app);
  // Read replicas (DATABASE_READ_URLS, docs/adr/0007): read-only routes' reads on a fresh replica; nothing when unset.
  installReadRouting(app);
  // The Idempotency-Key rule of every POST /v1 route (honoured unless listed in IDEMPOTENCY_KEY_IGNORED) and
  // every creating POST /admin/v1 route, on the POST handlers only: the other routes run without any
  // interceptor (no RxJS pipeline per request).
  interceptPostRoutes(app, app.get(IdempotencyInterceptor));
  // Exit through process.exit once closed (not by re-raising the signal), so the buffered log lines are flushed.
  app.enableShutdownHooks(undefined, { useProcessExit: true });
  await app.init();
  return app;
}
