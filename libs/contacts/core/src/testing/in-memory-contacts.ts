import { AccountId, IntegrationEvent, newId, Page } from '@leadflow/shared-kernel';
import type { JournalRow, SnapshotStore } from '@leadflow/shared-testing/fakes';
import type { ContactView, CustomFieldDefinitionView, TagView } from '@leadflow/contacts-contracts';
import { ContactListFilter, ContactsReadModel, NamePage } from '../application/ports/contacts.read-model.port';
import { ContactsRepository, IdentityOwner, NoteState, TagState } from '../application/ports/contacts.repository.port';
import { LeadCaptureLog, LeadCaptureRecord, LeadCaptureWrites, SmsFollowUpPort, SmsHandOff } from '../application/ports/lead-capture.ports';
import { toContactView, toDefinitionView, toTagView } from '../application/views';
import type { ContactState } from '../domain/contact.aggregate';
import type { Identity, IdentityKind } from '../domain/contact-identity';
import { IdentityTakenError, TagNameTakenError } from '../domain/contacts.errors';
import type { CustomFieldDefinition } from '../domain/custom-fields';

interface IdentityRow {
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
}

/** {@link ContactsRepository} over arrays, with the unique identity and tag-name rules of the tables. */
export class InMemoryContactsRepository extends ContactsRepository {
  /** Called before an identity insert: lets a test simulate a concurrent writer. */
  beforeIdentityInsert: (() => void) | null = null;

  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async findContact(accountId: AccountId, contactId: string): Promise<ContactState | null> {
    const found = this.store.contacts.find((contact) => contact.accountId === accountId && contact.id === contactId.toLowerCase());
    return found ? { ...found } : null;
  }

  async insertContact(contact: ContactState): Promise<void> {
    this.store.contacts.push({ ...contact });
    for (const kind of ['email', 'phone'] as const) {
      const value = contact[kind];
      if (value) this.insertIdentity({ accountId: contact.accountId, contactId: contact.id, kind, value, isPrimary: true });
    }
  }

  /** Like the TypeORM adapter: the lead score is left as stored. */
  async updateContact(contact: ContactState): Promise<void> {
    this.store.contacts = this.store.contacts.map((row) =>
      row.accountId === contact.accountId && row.id === contact.id ? { ...contact, score: row.score, scoreReviewAt: row.scoreReviewAt } : row,
    );
  }

  async setPrimaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string | null): Promise<void> {
    this.store.identities = this.store.identities.filter(
      (row) => !(row.accountId === accountId && row.contactId === contactId && row.kind === kind && row.isPrimary && row.value !== value),
    );
    if (value === null) return;
    const existing = this.store.identities.find((row) => row.accountId === accountId && row.kind === kind && row.value === value);
    if (existing && existing.contactId !== contactId) throw new IdentityTakenError(kind);
    if (existing) existing.isPrimary = true;
    else this.insertIdentity({ accountId, contactId, kind, value, isPrimary: true });
  }

  async addSecondaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string): Promise<boolean> {
    if (this.store.identities.some((row) => row.accountId === accountId && row.kind === kind && row.value === value)) return false;
    this.insertIdentity({ accountId, contactId, kind, value, isPrimary: false });
    return true;
  }

  async findIdentityOwners(accountId: AccountId, identities: readonly Identity[]): Promise<IdentityOwner[]> {
    return this.store.identities
      .filter((row) => row.accountId === accountId && identities.some((identity) => identity.kind === row.kind && identity.value === row.value))
      .map((row) => ({ kind: row.kind, value: row.value, contactId: row.contactId, survivorId: this.survivorOf(row.contactId) }));
  }

  async identitiesOf(accountId: AccountId, contactId: string): Promise<{ kind: IdentityKind; value: string; isPrimary: boolean }[]> {
    return this.store.identities
      .filter((row) => row.accountId === accountId && row.contactId === contactId)
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.value.localeCompare(b.value))
      .map((row) => ({ kind: row.kind, value: row.value, isPrimary: row.isPrimary }));
  }

  async moveIdentities(accountId: AccountId, fromContactId: string, toContactId: string, primaries: readonly Identity[]): Promise<void> {
    for (const row of this.store.identities) {
      if (row.accountId !== accountId || row.contactId !== fromContactId) continue;
      row.contactId = toContactId;
      row.isPrimary = primaries.some((identity) => identity.kind === row.kind && identity.value === row.value);
    }
  }

  async copyTags(accountId: AccountId, fromContactId: string, toContactId: string): Promise<string[]> {
    const has = new Set(this.store.contactTags.filter((row) => row.accountId === accountId && row.contactId === toContactId).map((row) => row.tagId));
    const added = this.store.contactTags.filter((row) => row.accountId === accountId && row.contactId === fromContactId && !has.has(row.tagId)).map((row) => row.tagId);
    for (const tagId of added) this.store.contactTags.push({ accountId, contactId: toContactId, tagId });
    return added.sort();
  }

  async absorbedInto(accountId: AccountId, contactId: string): Promise<string[]> {
    const direct = this.store.contacts.filter((contact) => contact.accountId === accountId && contact.mergedIntoId === contactId).map((c) => c.id);
    const nested = await Promise.all(direct.map((id) => this.absorbedInto(accountId, id)));
    return [...direct, ...nested.flat()];
  }

  async deleteContacts(accountId: AccountId, contactIds: readonly string[]): Promise<void> {
    const gone = (row: { accountId: string; contactId?: string; id?: string }, key: 'contactId' | 'id') =>
      row.accountId === accountId && contactIds.includes(row[key] as string);
    this.store.contacts = this.store.contacts.filter((row) => !gone(row, 'id'));
    this.store.identities = this.store.identities.filter((row) => !gone(row, 'contactId'));
    this.store.contactTags = this.store.contactTags.filter((row) => !gone(row, 'contactId'));
    this.store.notes = this.store.notes.filter((row) => !gone(row, 'contactId'));
  }

  async listDefinitions(accountId: AccountId): Promise<CustomFieldDefinition[]> {
    return this.store.definitions.filter((row) => row.accountId === accountId).map(({ accountId: _a, ...definition }) => definition);
  }

  async insertDefinitions(accountId: AccountId, definitions: readonly CustomFieldDefinition[]): Promise<void> {
    this.store.definitions.push(...definitions.map((definition) => ({ ...definition, accountId })));
  }

  async findTags(accountId: AccountId, tagIds: readonly string[]): Promise<TagState[]> {
    return this.store.tags.filter((tag) => tag.accountId === accountId && tagIds.includes(tag.id)).map(({ accountId: _a, ...tag }) => tag);
  }

  async findTagBySystemKey(accountId: AccountId, systemKey: string): Promise<TagState | null> {
    const found = this.store.tags.find((tag) => tag.accountId === accountId && tag.systemKey === systemKey);
    if (!found) return null;
    const { accountId: _a, ...tag } = found;
    return tag;
  }

  async tagNameExists(accountId: AccountId, name: string): Promise<boolean> {
    return this.store.tags.some((tag) => tag.accountId === accountId && tag.name === name);
  }

  async insertTag(accountId: AccountId, tag: TagState): Promise<void> {
    if (await this.tagNameExists(accountId, tag.name)) throw new TagNameTakenError(tag.name);
    this.store.tags.push({ ...tag, accountId });
  }

  async insertTagIfAbsent(accountId: AccountId, tag: TagState): Promise<boolean> {
    const taken = (await this.tagNameExists(accountId, tag.name)) || (tag.systemKey !== null && (await this.findTagBySystemKey(accountId, tag.systemKey)) !== null);
    if (!taken) this.store.tags.push({ ...tag, accountId });
    return !taken;
  }

  async ensureTags(accountId: AccountId, names: readonly string[], template: { color: string }, at: Date): Promise<TagState[]> {
    for (const name of names) {
      if (!(await this.tagNameExists(accountId, name))) {
        this.store.tags.push({ id: newId(), accountId, name, color: template.color, description: null, category: null, systemKey: null, createdAt: at, updatedAt: at });
      }
    }
    return names.map((name) => {
      const { accountId: _a, ...tag } = this.store.tags.find((row) => row.accountId === accountId && row.name === name)!;
      return tag;
    });
  }

  async contactTagIds(accountId: AccountId, contactId: string): Promise<string[]> {
    return this.store.contactTags.filter((row) => row.accountId === accountId && row.contactId === contactId).map((row) => row.tagId);
  }

  async attachTags(accountId: AccountId, contactId: string, tagIds: readonly string[], _at?: Date): Promise<string[]> {
    const current = await this.contactTagIds(accountId, contactId);
    const added = [...new Set(tagIds)].filter((tagId) => !current.includes(tagId));
    this.store.contactTags.push(...added.map((tagId) => ({ accountId, contactId, tagId })));
    return added;
  }

  async detachTag(accountId: AccountId, contactId: string, tagId: string): Promise<boolean> {
    const before = this.store.contactTags.length;
    this.store.contactTags = this.store.contactTags.filter((row) => !(row.accountId === accountId && row.contactId === contactId && row.tagId === tagId));
    return this.store.contactTags.length < before;
  }

  async insertNote(accountId: AccountId, note: NoteState): Promise<void> {
    this.store.notes.push({ ...note, accountId });
  }

  private insertIdentity(row: IdentityRow): void {
    this.beforeIdentityInsert?.();
    if (this.store.identities.some((other) => other.accountId === row.accountId && other.kind === row.kind && other.value === row.value)) {
      throw new IdentityTakenError(row.kind);
    }
    this.store.identities.push(row);
  }

  private survivorOf(contactId: string): string {
    const contact = this.store.contacts.find((row) => row.id === contactId);
    return contact?.mergedIntoId ? this.survivorOf(contact.mergedIntoId) : contactId;
  }
}

/** {@link ContactsReadModel} over the same store (lists are not paginated beyond `limit`). */
export class InMemoryContactsReadModel extends ContactsReadModel {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async listContacts(accountId: AccountId, filter: ContactListFilter): Promise<Page<ContactView>> {
    const rows = this.store.contacts.filter((contact) => contact.accountId === accountId && !contact.mergedIntoId);
    const data = rows.slice(0, filter.page.limit).map((row) => toContactView(row));
    return { data, pagination: { next_cursor: null, has_more: rows.length > filter.page.limit, limit: filter.page.limit, total_count: rows.length } };
  }

  async getContact(accountId: AccountId, contactId: string, options: { expandTags?: boolean } = {}): Promise<ContactView | null> {
    const row = this.store.contacts.find((contact) => contact.accountId === accountId && contact.id === contactId && !contact.mergedIntoId);
    if (!row) return null;
    return toContactView(row, options.expandTags ? await this.tagsOfContact(accountId, row.id) : undefined);
  }

  async tagsOfContact(accountId: AccountId, contactId: string): Promise<TagView[]> {
    const ids = this.store.contactTags.filter((row) => row.accountId === accountId && row.contactId === contactId).map((row) => row.tagId);
    return this.store.tags
      .filter((tag) => tag.accountId === accountId && ids.includes(tag.id))
      .sort((a, b) => (a.name === b.name ? a.id.localeCompare(b.id) : a.name < b.name ? -1 : 1))
      .map(toTagView);
  }

  async listTags(accountId: AccountId, page: NamePage): Promise<Page<TagView>> {
    const tags = this.store.tags.filter((tag) => tag.accountId === accountId).map(toTagView);
    return { data: tags.slice(0, page.limit), pagination: { next_cursor: null, has_more: tags.length > page.limit, limit: page.limit, total_count: tags.length } };
  }

  async listDefinitions(accountId: AccountId): Promise<CustomFieldDefinitionView[]> {
    return this.store.definitions.filter((row) => row.accountId === accountId).map(toDefinitionView);
  }
}

/**
 * {@link LeadCaptureLog} over the store (rolled back with the unit of work). The new contact and the
 * tags of a capture go through `contacts` (its unique identity rule and `beforeIdentityInsert` hook).
 */
export class InMemoryLeadCaptureLog extends LeadCaptureLog {
  constructor(
    private readonly store: InMemoryContactsStore,
    private readonly contacts: InMemoryContactsRepository = new InMemoryContactsRepository(store),
  ) {
    super();
  }

  async lastCapture(accountId: AccountId, contactId: string): Promise<LeadCaptureRecord | null> {
    const rows = this.store.captures.filter((row) => row.accountId === accountId && row.contactId === contactId);
    const last = rows.sort((a, b) => b.capturedAt.getTime() - a.capturedAt.getTime())[0];
    if (!last) return null;
    const { accountId: _a, ...capture } = last;
    return capture;
  }

  /** All or nothing, like the one statement of the SQL adapter (a refused identity leaves nothing behind). */
  async record(accountId: AccountId, capture: LeadCaptureRecord, writes: LeadCaptureWrites = {}): Promise<void> {
    const before = this.store.snapshot();
    try {
      await this.write(accountId, capture, writes);
    } catch (error) {
      this.store.restore(before);
      throw error;
    }
  }

  private async write(accountId: AccountId, capture: LeadCaptureRecord, writes: LeadCaptureWrites): Promise<void> {
    if (writes.newContact) await this.contacts.insertContact(writes.newContact);
    if (writes.tagIds?.length) await this.contacts.attachTags(accountId, capture.contactId, writes.tagIds);
    this.store.captures.push({ ...capture, accountId });
    if (writes.journal) {
      this.store.entries.push(...writes.journal.entries.map((entry) => ({ ...entry, accountId, id: entry.id ?? newId() })));
      this.store.events.push(...writes.journal.events);
    }
  }
}

/** {@link SmsFollowUpPort} recording hand-offs in the store, one per event. */
export class InMemorySmsFollowUp extends SmsFollowUpPort {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async handOff(accountId: AccountId, handOff: SmsHandOff): Promise<boolean> {
    if (this.store.handOffs.some((row) => row.accountId === accountId && row.eventId === handOff.eventId)) return false;
    this.store.handOffs.push({ ...handOff, accountId });
    return true;
  }
}
