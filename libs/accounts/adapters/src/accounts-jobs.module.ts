import { Module } from '@nestjs/common';
import { AccountsCoreModule } from './accounts-core.module';

/**
 * The accounts context in the worker: no jobs; the handlers and ports of AccountsCoreModule, so that
 * worker-side callers can dispatch its published queries (test mode: `GetAccountModeQuery` for webhook
 * payloads' `livemode`, email delivery and SMS hand-off of a sandbox account).
 */
@Module({ imports: [AccountsCoreModule] })
export class AccountsJobsModule {}
