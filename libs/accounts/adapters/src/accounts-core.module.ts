import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  ACCOUNTS_HANDLERS,
  AccountsActivityLog,
  AccountsReadModel,
  AccountsRepository,
  AccountsSettings,
  ApiKeyCache,
} from '@leadflow/accounts-core';
import { AppConfig } from '@leadflow/shared-platform';
import { PlatformAccountsActivityLog } from './infrastructure/activity/platform-accounts-activity.log';
import { LruApiKeyCache } from './infrastructure/cache/lru-api-key.cache';
import { ACCOUNTS_RECORDS } from './infrastructure/persistence/accounts.records';
import { TypeOrmAccountsReadModel } from './infrastructure/persistence/typeorm-accounts.read-model';
import { TypeOrmAccountsRepository } from './infrastructure/persistence/typeorm-accounts.repository';

/**
 * The accounts context's one core module: every handler ({@link ACCOUNTS_HANDLERS}, listed once in core:
 * published commands and queries, authentication, the operator console's reads) and every port binding,
 * imported by both AccountsHttpModule and AccountsJobsModule.
 */
@Module({
  imports: [TypeOrmModule.forFeature(ACCOUNTS_RECORDS)],
  providers: [
    ...ACCOUNTS_HANDLERS,
    { provide: AccountsRepository, useClass: TypeOrmAccountsRepository },
    { provide: AccountsReadModel, useClass: TypeOrmAccountsReadModel },
    { provide: ApiKeyCache, useClass: LruApiKeyCache },
    { provide: AccountsActivityLog, useClass: PlatformAccountsActivityLog },
    { provide: AccountsSettings, useFactory: (config: AppConfig) => ({ defaultKeyPerHour: config.defaultKeyPerHour }), inject: [AppConfig] },
  ],
})
export class AccountsCoreModule {}
