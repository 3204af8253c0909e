import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Clock } from '@leadflow/shared-kernel';
import { AppConfig, createRootLogger, fastifyServerOptions, installHttpContract, PinoNestLogger } from '@leadflow/shared-platform';
import { AppModule } from './app.module';

/**
 * Builds the api application (not listening): Fastify with the request-id and legacy-prefix options,
 * the AppModule, and the cross-cutting HTTP contract. Used by `main.ts` and by end-to-end tests.
 */
export async function createApiApp(config: AppConfig, clock?: Clock): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config.logLevel, 'api');
  const adapter = new FastifyAdapter({ ...fastifyServerOptions(), loggerInstance: logger});
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ config, clock }), adapter, {
    logger: new PinoNestLogger(logger),
    bufferLogs: false,
    bodyParser: false,
    abortOnError: false,
  });
  installHttpContract(app);
  app.enableShutdownHooks();
  await app.init();
  return app;
}
