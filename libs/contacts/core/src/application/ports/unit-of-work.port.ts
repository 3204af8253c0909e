import type { AccountId, Actor, IntegrationEvent } from '@leadflow/shared-kernel';

/** One transaction around `work`; nested calls join the outer one (shared-platform's TransactionHost). */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}

/** An activity-log / timeline entry. */
export interface JournalEntry {
  /** A UUID chosen by the caller (to reference the entry in the same transaction); a new one by default. */
  id?: string;
  contactId: string | null;
  /** e.g. `contact_created`, `lead_updated`, `note_added`, `tag_added`. */
  type: string;
  actor: Actor;
  data?: Record<string, unknown>;
}

/**
 * Activity log and transactional outbox, written through the current unit of work so they commit
 * with the business rows (shared-platform's ActivityLogWriter and OutboxWriter).
 */
export abstract class ContactJournal {
  /** Returns the ids of the activity entries, in order. */
  abstract record(accountId: AccountId, entries: readonly JournalEntry[], events: readonly IntegrationEvent[]): Promise<string[]>;
}
