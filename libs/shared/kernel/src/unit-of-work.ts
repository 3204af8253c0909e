import type { AccountId } from './account-id';
import type { Actor, IntegrationEvent } from './integration-event';

/**
 * One transaction around `work`: every write made through the ports while `work` runs commits or rolls
 * back together. Nested calls join the outer transaction (no savepoint). The platform binds it to
 * shared-platform's `TransactionHost`; unit tests use shared-testing's `InMemoryUnitOfWork`.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}

/** An activity-log / timeline entry (`contact_created`, `quote_sent`, `booking_cancelled`…). */
export interface JournalEntry {
  /** A UUID chosen by the caller (to reference the entry in the same transaction); a new one by default. */
  id?: string;
  /** The contact whose timeline shows the entry; null for account-level entries. */
  contactId: string | null;
  /** The entry type, e.g. `contact_created`, `note_added`, `quote_signed`. */
  type: string;
  actor: Actor;
  data?: Record<string, unknown>;
  /** Defaults to the clock's now (UTC). */
  at?: Date;
}

/**
 * The write's journal: activity-log / timeline entries and integration events (the transactional
 * outbox), written through the current {@link UnitOfWork} so they commit with the business rows
 * (ARCHITECTURE › Writes, events and the worker).
 */
export abstract class Journal {
  /**
   * Entries and events of one account, in one statement on PostgreSQL. Returns the entry ids, in the
   * order of `entries` (empty when there are none).
   */
  abstract record(accountId: AccountId, entries: readonly JournalEntry[], events?: readonly IntegrationEvent[]): Promise<string[]>;

  /** Integration events only (no activity entry), in the order given; each event carries its account. */
  abstract publish(events: readonly IntegrationEvent[]): Promise<void>;
}
