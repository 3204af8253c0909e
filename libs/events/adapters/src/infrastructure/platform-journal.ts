import { Injectable } from '@nestjs/common';
import { AccountId, Actor, IntegrationEvent } from '@leadflow/shared-kernel';
import { JournalWriter, TransactionHost } from '@leadflow/shared-platform';
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

/** {@link EventsJournal} on `platform.activity_log` and `platform.outbox`: one statement, in the current transaction. */
@Injectable()
export class PlatformEventsJournal extends EventsJournal {
  constructor(private readonly journal: JournalWriter) {
    super();
  }

  record(
    accountId: AccountId,
    entries: readonly { contactId: string | null; type: string; actor: Actor; data?: Record<string, unknown> }[],
    events: readonly IntegrationEvent[] = [],
  ): Promise<string[]> {
    return this.journal.write(accountId, entries, events);
  }
}
