import { Injectable } from '@nestjs/common';
import { AccountId, IntegrationEvent } from '@leadflow/shared-kernel';
import { JournalWriter, TransactionHost } from '@leadflow/shared-platform';
import { QuoteJournal, QuoteJournalEntry, QuoteUnitOfWork } from '@leadflow/quotes-core';

/** {@link QuoteUnitOfWork} on shared-platform's TransactionHost (nested runs join the outer transaction). */
@Injectable()
export class PlatformQuoteUnitOfWork extends QuoteUnitOfWork {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.transactions.run(() => work());
  }
}

/** {@link QuoteJournal} on `platform.activity_log` and `platform.outbox`: one statement, in the current transaction. */
@Injectable()
export class PlatformQuoteJournal extends QuoteJournal {
  constructor(private readonly journal: JournalWriter) {
    super();
  }

  async record(accountId: AccountId, entries: readonly QuoteJournalEntry[], events: readonly IntegrationEvent[]): Promise<void> {
    await this.journal.write(accountId, entries, events);
  }
}
