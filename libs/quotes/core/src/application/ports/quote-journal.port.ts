import type { AccountId, Actor, IntegrationEvent } from '@leadflow/shared-kernel';

/** One transaction around `work`; nested calls join the outer one (shared-platform's TransactionHost). */
export abstract class QuoteUnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}

/** An activity-log / timeline entry (`quote_created`, `quote_sent`, `quote_signed`…). */
export interface QuoteJournalEntry {
  contactId: string | null;
  type: string;
  actor: Actor;
  data?: Record<string, unknown>;
}

/** Activity log and transactional outbox, written through the current unit of work. */
export abstract class QuoteJournal {
  abstract record(accountId: AccountId, entries: readonly QuoteJournalEntry[], events: readonly IntegrationEvent[]): Promise<void>;
}
