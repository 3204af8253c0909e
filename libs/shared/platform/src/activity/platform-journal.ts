import { Injectable } from '@nestjs/common';
import { AccountId, IntegrationEvent, Journal, JournalEntry } from '@leadflow/shared-kernel';
import { OutboxWriter } from '../outbox/outbox.writer';
import { JournalWriter } from './journal.writer';

/**
 * The kernel's {@link Journal} port on `platform.activity_log` and `platform.outbox`, in the current
 * unit of work: `record` is {@link JournalWriter}'s one statement (entries as a data-modifying CTE, then
 * the events), `publish` is {@link OutboxWriter}'s one INSERT. Bound once by PlatformModule for every context.
 */
@Injectable()
export class PlatformJournal extends Journal {
  constructor(
    private readonly journal: JournalWriter,
    private readonly outbox: OutboxWriter,
  ) {
    super();
  }

  record(accountId: AccountId, entries: readonly JournalEntry[], events: readonly IntegrationEvent[] = []): Promise<string[]> {
    return this.journal.write(accountId, entries, events);
  }

  publish(events: readonly IntegrationEvent[]): Promise<void> {
    return this.outbox.append(events);
  }
}
