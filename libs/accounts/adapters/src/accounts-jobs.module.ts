import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsRepository, GetAccountModeHandler } from '@leadflow/accounts-core';
import { ACCOUNTS_RECORDS } from './infrastructure/persistence/accounts.records';
import { TypeOrmAccountsRepository } from './infrastructure/persistence/typeorm-accounts.repository';

/**
 * The accounts context in the worker: no jobs, only the published {@link GetAccountModeHandler} query
 * (test mode: webhook payloads' `livemode`, email delivery and SMS hand-off of a sandbox account).
 */
@Module({
  imports: [TypeOrmModule.forFeature(ACCOUNTS_RECORDS)],
  providers: [GetAccountModeHandler, { provide: AccountsRepository, useClass: TypeOrmAccountsRepository }],
})
export class AccountsJobsModule {}
