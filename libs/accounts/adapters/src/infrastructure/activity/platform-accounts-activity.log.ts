import { Injectable } from '@nestjs/common';
import type { AccountId } from '@leadflow/shared-kernel';
import { ActivityLogWriter } from '@leadflow/shared-platform';
import { AccountActivity, AccountsActivityLog } from '@leadflow/accounts-core';

/** {@link AccountsActivityLog} on the platform activity log (`platform.activity_log`), in the current unit of work. */
@Injectable()
export class PlatformAccountsActivityLog extends AccountsActivityLog {
  constructor(private readonly writer: ActivityLogWriter) {
    super();
  }

  async record(accountId: AccountId, entries: readonly AccountActivity[]): Promise<void> {
    await this.writer.record(
      accountId,
      entries.map((entry) => ({ contactId: null, type: entry.type, actor: entry.actor, data: entry.data })),
    );
  }
}
