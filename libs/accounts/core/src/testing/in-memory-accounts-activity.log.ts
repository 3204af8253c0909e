import type { AccountId } from '@leadflow/shared-kernel';
import { AccountActivity, AccountsActivityLog } from '../application/ports/accounts-activity.port';

/** In-memory fake of {@link AccountsActivityLog} for handler unit tests. */
export class InMemoryAccountsActivityLog extends AccountsActivityLog {
  readonly entries: (AccountActivity & { accountId: AccountId })[] = [];

  async record(accountId: AccountId, entries: readonly AccountActivity[]): Promise<void> {
    this.entries.push(...entries.map((entry) => ({ ...entry, accountId })));
  }
}
