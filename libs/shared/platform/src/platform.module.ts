import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock, Journal, SystemClock, UnitOfWork } from '@leadflow/shared-kernel';
import { ActivityLogRecord } from './activity/activity-log.record';
import { ActivityLogWriter } from './activity/activity-log.writer';
import { JournalWriter } from './activity/journal.writer';
import { PlatformJournal } from './activity/platform-journal';
import { AppConfig } from './config/app-config';
import { SecretCipher } from './crypto/secret-cipher';
import { dataSourceOptions } from './database/data-source.factory';
import { resolvePreparedStatements } from './database/pooler-probe';
import { TransactionHost } from './database/transaction-host';
import { ReadReplicaRouter } from './database/read-replicas/read-replica.router';
import { WrittenLsnStore } from './database/read-replicas/written-lsn.store';
import { IdempotencyKeyRecord } from './http/idempotency/idempotency-key.record';
import { IdempotencyInterceptor } from './http/idempotency/idempotency.interceptor';
import { IdempotencyStore } from './http/idempotency/idempotency.store';
import { FailedAttempts } from './http/auth/failed-attempts';
import { LocalLimits } from './http/local-limits';
import { RateLimits } from './http/rate-limits';
import { QuotaStoreState } from './http/quota-store-state';
import { OutboxRecord } from './outbox/outbox.record';
import { OutboxWriter } from './outbox/outbox.writer';
import { RedisConnection } from './redis/redis.connection';
import { AccountCacheInvalidation } from './cache/account-cache-invalidation';

export interface PlatformModuleOptions {
  config: AppConfig;
  /** Defaults to the system clock; tests pass a FixedClock. */
  clock?: Clock;
}

/**
 * Global infrastructure shared by the api and the worker: configuration, clock, the TypeORM data
 * source (entities auto-loaded from each context's `TypeOrmModule.forFeature`), the unit of work,
 * outbox, activity-log and journal (both in one statement) writers, the kernel's `UnitOfWork` and `Journal` ports, Redis, rate limits (and their per-process fallback, the failed-credential limiter), the secrets cipher (`SECRET_ENCRYPTION_KEY`), idempotency store and the CQRS buses.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(options: PlatformModuleOptions): DynamicModule {
    const providers = [
      { provide: AppConfig, useValue: options.config },
      { provide: Clock, useValue: options.clock ?? new SystemClock() },
      TransactionHost,
      OutboxWriter,
      ActivityLogWriter,
      JournalWriter,
      // The kernel's write ports, bound once for every context (issue 14, item 1).
      { provide: UnitOfWork, useExisting: TransactionHost },
      { provide: Journal, useClass: PlatformJournal },
      RedisConnection,
      AccountCacheInvalidation,
      RateLimits,
      QuotaStoreState,
      LocalLimits,
      FailedAttempts,
      SecretCipher,
      IdempotencyStore,
      IdempotencyInterceptor,
      // Read replicas (DATABASE_READ_URLS, docs/adr/0007): inactive when unset.
      WrittenLsnStore,
      ReadReplicaRouter,
    ];
    return {
      module: PlatformModule,
      imports: [
        CqrsModule.forRoot(),
        // Prepared statements unless a pooler that drops them sits in front of PostgreSQL (probed once per
        // process; DATABASE_PREPARED_STATEMENTS=true through one refuses start-up with a ConfigError).
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            const { databaseUrl, databasePreparedStatements } = options.config;
            const logger = new Logger('Database');
            const prepared = await resolvePreparedStatements(databaseUrl, databasePreparedStatements, (message) => logger.warn(message));
            return { ...dataSourceOptions(databaseUrl, [], [], prepared), autoLoadEntities: true };
          },
        }),
        TypeOrmModule.forFeature([OutboxRecord, ActivityLogRecord, IdempotencyKeyRecord]),
      ],
      providers,
      exports: [...providers, CqrsModule, TypeOrmModule],
    };
  }
}
