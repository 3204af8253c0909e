import { Module } from '@nestjs/common';
import { AccountsCoreModule } from './accounts-core.module';
import { MeController } from './interface/http/me.controller';

/** Accounts, API keys and authentication for the api app (published commands and queries included, and the operator console's reads): `GET /v1/me`; handlers and ports from AccountsCoreModule. */
@Module({
  imports: [AccountsCoreModule],
  controllers: [MeController],
})
export class AccountsHttpModule {}
