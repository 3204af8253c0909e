import { Injectable } from '@nestjs/common';
import { AccountId, Actor } from '@leadflow/shared-kernel';
import { ActivityLogWriter, TransactionHost } from '@leadflow/shared-platform';
import { EventsJournal, EventsUnitOfWork } from '@leadflow/events-core';

/** {@link EventsUnitOfWork} on shared-platform's TransactionHost (nested runs join the outer transaction). */
@Injectable()
export class PlatformEventsUnitOfWork extends EventsUnitOfWork {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.transactions.run(() => work());
  }
}

/** {@link EventsJournal} on `platform.activity_log`, in the current transaction. */
@Injectable()
export class PlatformEventsJournal extends EventsJournal {
  constructor(private readonly activityLog: ActivityLogWriter) {
    super();
  }

  record(accountId: AccountId, entries: readonly { contactId: string | null; type: string; actor: Actor; data?: Record<string, unknown> }[]): Promise<string[]> {
    return this.activityLog.record(accountId, entries);
  }
}
