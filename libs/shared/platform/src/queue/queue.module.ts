import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/** Parses a `redis://[user:pass@]host:port/db` URL into BullMQ connection options. */
export function bullConnection(redisUrl: string) {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
    maxRetriesPerRequest: null,
  };
}

/**
 * BullMQ root configuration shared by producers (api, outbox relay) and processors (worker):
 * connection from `REDIS_URL`, queue names prefixed with `REDIS_PREFIX` (tests isolate by prefix).
 * Contexts register their queues with `BullModule.registerQueue` in their jobs modules.
 */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            connection: bullConnection(config.redisUrl),
            prefix: `${config.redisPrefix}:bull`,
          }),
        }),
      ],
      exports: [BullModule],
    };
  }
}
