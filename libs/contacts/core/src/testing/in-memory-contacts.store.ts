import type { IntegrationEvent } from '@leadflow/shared-kernel';
import type { JournalRow, SnapshotStore } from '@leadflow/shared-testing/fakes';
import type { NoteState } from '../application/ports/contact-note.repository.port';
import type { LeadCaptureRecord, SmsHandOff } from '../application/ports/lead-capture.ports';
import type { TagState } from '../application/ports/tag.repository.port';
import type { ContactState } from '../domain/contact.aggregate';
import type { IdentityKind } from '../domain/contact-identity';
import { IdentityTakenError } from '../domain/contacts.errors';
import type { CustomFieldDefinition } from '../domain/custom-fields';

export interface IdentityRow {
  accountId: string;
  contactId: string;
  kind: IdentityKind;
  value: string;
  isPrimary: boolean;
}

/** Every row of the fakes, one object so a unit of work can snapshot and restore it. */
export class InMemoryContactsStore implements SnapshotStore {
  contacts: ContactState[] = [];
  identities: IdentityRow[] = [];
  definitions: (CustomFieldDefinition & { accountId: string })[] = [];
  tags: (TagState & { accountId: string })[] = [];
  contactTags: { accountId: string; contactId: string; tagId: string }[] = [];
  notes: (NoteState & { accountId: string })[] = [];
  entries: JournalRow[] = [];
  events: IntegrationEvent[] = [];
  captures: (LeadCaptureRecord & { accountId: string })[] = [];
  handOffs: (SmsHandOff & { accountId: string })[] = [];

  /** Called before an identity insert: lets a test simulate a concurrent writer. */
  beforeIdentityInsert: (() => void) | null = null;

  private readonly concurrent: ((store: InMemoryContactsStore) => void)[] = [];

  /** The rows as JSON (dates as ISO strings). */
  snapshot(): string {
    const { contacts, identities, definitions, tags, contactTags, notes, entries, events, captures, handOffs } = this;
    return JSON.stringify({ contacts, identities, definitions, tags, contactTags, notes, entries, events, captures, handOffs });
  }

  /** Back to `snapshot`, then re-applies what concurrent transactions committed meanwhile. */
  restore(snapshot: string): void {
    const parsed = JSON.parse(snapshot, (_, value) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T.*Z$/.test(value) ? new Date(value) : value));
    Object.assign(this, parsed);
    for (const change of this.concurrent) change(this);
  }

  /** Applies a change committed by a concurrent transaction: a rollback of ours keeps it. */
  commitConcurrently(change: (store: InMemoryContactsStore) => void): void {
    change(this);
    this.concurrent.push(change);
  }

  /** Inserts an identity row, refused like the unique index on (account, kind, value) (`IdentityTakenError`). */
  insertIdentity(row: IdentityRow): void {
    this.beforeIdentityInsert?.();
    if (this.identities.some((other) => other.accountId === row.accountId && other.kind === row.kind && other.value === row.value)) {
      throw new IdentityTakenError(row.kind);
    }
    this.identities.push(row);
  }

  /** The end of the contact's merge chain (itself when not merged). */
  survivorOf(contactId: string): string {
    const contact = this.contacts.find((row) => row.id === contactId);
    return contact?.mergedIntoId ? this.survivorOf(contact.mergedIntoId) : contactId;
  }
}

/** The stored contact's AI follow-up marker (null when never set). */
export function aiFollowUpStoppedAt(store: InMemoryContactsStore, contactId: string): Date | null {
  const row = store.contacts.find((contact) => contact.id === contactId) as { aiFollowUpStoppedAt?: Date | null } | undefined;
  return row?.aiFollowUpStoppedAt ?? null;
}
