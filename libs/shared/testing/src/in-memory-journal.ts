import { AccountId, IntegrationEvent, Journal, JournalEntry, newId, UnitOfWork } from '@leadflow/shared-kernel';

/** A store of fake rows a unit of work can snapshot before `work` and restore when it throws. */
export interface SnapshotStore {
  snapshot(): string;
  restore(snapshot: string): void;
}

/** An activity entry as {@link InMemoryJournal} keeps it: the entry with its account and id. */
export type JournalRow = JournalEntry & { accountId: string; id: string };

/** Where {@link InMemoryJournal} writes: a context's fake store, or a journal of its own. */
export interface JournalStore {
  entries: JournalRow[];
  events: IntegrationEvent[];
}

/** Dates as ISO strings in a snapshot: turned back into `Date`s on restore. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T.*Z$/;

/**
 * Base of the contexts' fake stores: every own field is a table (an array or a record of rows), saved as
 * JSON by `snapshot` and put back by `restore` (ISO strings become `Date`s again). Also a
 * {@link JournalStore}, so the journal's entries and events roll back with the business rows.
 */
export class InMemoryStore implements SnapshotStore, JournalStore {
  entries: JournalRow[] = [];
  events: IntegrationEvent[] = [];

  snapshot(): string {
    return JSON.stringify(this);
  }

  restore(snapshot: string): void {
    Object.assign(this, JSON.parse(snapshot, (_, value) => (typeof value === 'string' && ISO_DATE.test(value) ? new Date(value) : value)));
  }
}

/**
 * The kernel's {@link UnitOfWork} in memory. With a store, a throwing `work` restores the store's snapshot
 * taken before it (a rolled-back transaction); without one, the work just runs. Nested runs join the
 * outermost one, like shared-platform's TransactionHost. `runs` counts the outermost runs.
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  runs = 0;
  private depth = 0;

  constructor(private readonly store: SnapshotStore | null = null) {
    super();
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return work();
    this.runs += 1;
    const before = this.store?.snapshot();
    this.depth += 1;
    try {
      return await work();
    } catch (error) {
      if (this.store && before !== undefined) this.store.restore(before);
      throw error;
    } finally {
      this.depth -= 1;
    }
  }
}

/**
 * The kernel's {@link Journal} in memory: entries (with their account and id, a new UUID unless the entry
 * has one) and events pushed onto `store`, by default a store of its own.
 */
export class InMemoryJournal extends Journal {
  constructor(private readonly store: JournalStore = { entries: [], events: [] }) {
    super();
  }

  /** The entries recorded so far, in order. */
  get entries(): JournalRow[] {
    return this.store.entries;
  }

  /** The integration events recorded or published so far, in order. */
  get events(): IntegrationEvent[] {
    return this.store.events;
  }

  async record(accountId: AccountId, entries: readonly JournalEntry[], events: readonly IntegrationEvent[] = []): Promise<string[]> {
    const rows = entries.map((entry) => ({ ...entry, accountId, id: entry.id ?? newId() }));
    this.store.entries.push(...rows);
    this.store.events.push(...events);
    return rows.map((row) => row.id);
  }

  async publish(events: readonly IntegrationEvent[]): Promise<void> {
    this.store.events.push(...events);
  }
}
