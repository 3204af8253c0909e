import { Injectable } from '@nestjs/common';
import { AccountId, IntegrationEvent } from '@leadflow/shared-kernel';
import { JournalWriter, TransactionHost } from '@leadflow/shared-platform';
import { ContactJournal, JournalEntry, UnitOfWork } from '@leadflow/contacts-core';

/** {@link UnitOfWork} on shared-platform's TransactionHost (nested runs join the outer transaction). */
@Injectable()
export class PlatformUnitOfWork extends UnitOfWork {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.transactions.run(() => work());
  }
}

/** {@link ContactJournal} on `platform.activity_log` and `platform.outbox`: one statement, in the current transaction. */
@Injectable()
export class PlatformContactJournal extends ContactJournal {
  constructor(private readonly journal: JournalWriter) {
    super();
  }

  async record(accountId: AccountId, entries: readonly JournalEntry[], events: readonly IntegrationEvent[]): Promise<string[]> {
    return this.journal.write(accountId, entries, events);
  }
}
