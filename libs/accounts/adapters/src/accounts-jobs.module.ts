import { Module } from '@nestjs/common';

/** The accounts context runs no background jobs yet. */
@Module({})
export class AccountsJobsModule {}
