import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  ACCOUNTS_HANDLERS,
  ACCOUNTS_OPERATOR_READ_HANDLERS,
  AccountsActivityLog,
  AccountsReadModel,
  AccountsRepository,
  AccountsSettings,
  ApiKeyCache,
} from '@leadflow/accounts-core';
import { AppConfig } from '@leadflow/shared-platform';
import { LruApiKeyCache } from './infrastructure/cache/lru-api-key.cache';
import { PlatformAccountsActivityLog } from './infrastructure/activity/platform-accounts-activity.log';
import { ACCOUNTS_RECORDS } from './infrastructure/persistence/accounts.records';
import { TypeOrmAccountsReadModel } from './infrastructure/persistence/typeorm-accounts.read-model';
import { TypeOrmAccountsRepository } from './infrastructure/persistence/typeorm-accounts.repository';
import { MeController } from './interface/http/me.controller';

/** Accounts, API keys and authentication for the api app (published commands and queries included, and the operator console's reads). */
@Module({
  imports: [TypeOrmModule.forFeature(ACCOUNTS_RECORDS)],
  controllers: [MeController],
  providers: [
    ...ACCOUNTS_HANDLERS,
    ...ACCOUNTS_OPERATOR_READ_HANDLERS,
    { provide: AccountsRepository, useClass: TypeOrmAccountsRepository },
    { provide: AccountsReadModel, useClass: TypeOrmAccountsReadModel },
    { provide: ApiKeyCache, useClass: LruApiKeyCache },
    { provide: AccountsActivityLog, useClass: PlatformAccountsActivityLog },
    { provide: AccountsSettings, useFactory: (config: AppConfig) => ({ defaultKeyPerHour: config.defaultKeyPerHour }), inject: [AppConfig] },
  ],
})
export class AccountsHttpModule {}
