import { AccountId, newId, Page } from '@leadflow/shared-kernel';
import type { ContactView, CustomFieldDefinitionView, TagView } from '@leadflow/contacts-contracts';
import { ContactListFilter, ContactsReadModel, NamePage } from '../application/ports/contacts.read-model.port';
import { ContactsRepository } from '../application/ports/contacts.repository.port';
import { aiFollowUpOpen, LeadCaptureLog, LeadCaptureRecord, LeadCaptureWrites, NewPersonCapture, SmsFollowUpPort, SmsHandOff, SmsHandOffResult } from '../application/ports/lead-capture.ports';
import type { Identity } from '../domain/contact-identity';
import { toContactView, toDefinitionView, toTagView } from '../application/views';
import type { ContactState } from '../domain/contact.aggregate';
import { InMemoryContactIdentityRepository } from './in-memory-contact-identities';
import { InMemoryContactNoteRepository } from './in-memory-contact-notes';
import { InMemoryContactTagRepository } from './in-memory-contact-tags';
import { aiFollowUpStoppedAt, InMemoryContactsStore } from './in-memory-contacts.store';
import { InMemoryCustomFieldDefinitionRepository } from './in-memory-custom-field-definitions';
import { InMemoryTagRepository } from './in-memory-tags';

export { InMemoryContactsStore } from './in-memory-contacts.store';

/**
 * The six write ports of the contacts context as fakes over one store (contacts, identities, custom-field
 * definitions, tags, tags on contacts, notes), for handler specs.
 */
export function inMemoryContactPorts(store: InMemoryContactsStore) {
  return {
    contacts: new InMemoryContactsRepository(store),
    identities: new InMemoryContactIdentityRepository(store),
    definitions: new InMemoryCustomFieldDefinitionRepository(store),
    tags: new InMemoryTagRepository(store),
    contactTags: new InMemoryContactTagRepository(store),
    notes: new InMemoryContactNoteRepository(store),
  };
}

/** {@link ContactsRepository} over arrays; its primary identities go through the store's unique identity rule. */
export class InMemoryContactsRepository extends ContactsRepository {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  /** Called before an identity insert (the store's hook): lets a test simulate a concurrent writer. */
  get beforeIdentityInsert(): (() => void) | null {
    return this.store.beforeIdentityInsert;
  }

  set beforeIdentityInsert(hook: (() => void) | null) {
    this.store.beforeIdentityInsert = hook;
  }

  async findContact(accountId: AccountId, contactId: string): Promise<ContactState | null> {
    const found = this.store.contacts.find((contact) => contact.accountId === accountId && contact.id === contactId.toLowerCase());
    return found ? { ...found } : null;
  }
  async insertContact(contact: ContactState): Promise<void> {
    this.store.contacts.push({ ...contact });
    for (const kind of ['email', 'phone'] as const) {
      const value = contact[kind];
      if (value) this.store.insertIdentity({ accountId: contact.accountId, contactId: contact.id, kind, value, isPrimary: true });
    }
  }
  /** Like the TypeORM adapter: the lead score is left as stored. */
  async updateContact(contact: ContactState): Promise<void> {
    this.store.contacts = this.store.contacts.map((row) =>
      row.accountId === contact.accountId && row.id === contact.id ? { ...contact, score: row.score, scoreReviewAt: row.scoreReviewAt } : row,
    );
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
 * {@link LeadCaptureLog} over the store (rolled back with the unit of work). The new contact goes
 * through `contacts` (the store's unique identity rule and `beforeIdentityInsert` hook), the tags through
 * the contact-tags fake.
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

  /** Records only when none of `lookups` is stored; the owners of those stored otherwise (as the identities fake answers them). */
  async recordIfNewPerson(accountId: AccountId, lookups: readonly Identity[], capture: LeadCaptureRecord, writes: LeadCaptureWrites): Promise<NewPersonCapture> {
    const owners = await new InMemoryContactIdentityRepository(this.store).findIdentityOwners(accountId, lookups);
    if (owners.length > 0) return { recorded: false, owners };
    await this.record(accountId, capture, writes);
    return { recorded: true };
  }

  private async write(accountId: AccountId, capture: LeadCaptureRecord, writes: LeadCaptureWrites): Promise<void> {
    if (writes.newContact) await this.contacts.insertContact(writes.newContact);
    if (writes.tagIds?.length) await new InMemoryContactTagRepository(this.store).attachTags(accountId, capture.contactId, writes.tagIds);
    this.store.captures.push({ ...capture, accountId });
    if (writes.journal) {
      this.store.entries.push(...writes.journal.entries.map((entry) => ({ ...entry, accountId, id: entry.id ?? newId() })));
      this.store.events.push(...writes.journal.events);
    }
  }
}

/** {@link SmsFollowUpPort} recording hand-offs in the store, one per event, while {@link aiFollowUpOpen} holds. */
export class InMemorySmsFollowUp extends SmsFollowUpPort {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async handOff(accountId: AccountId, handOff: SmsHandOff): Promise<SmsHandOffResult> {
    const row = this.store.contacts.find((contact) => contact.accountId === accountId && contact.id === handOff.contactId);
    const contact = row ? { mergedIntoId: row.mergedIntoId, aiFollowUpStoppedAt: aiFollowUpStoppedAt(this.store, row.id) } : null;
    if (!aiFollowUpOpen(contact) || this.store.handOffs.some((entry) => entry.accountId === accountId && entry.eventId === handOff.eventId)) {
      return { contact, recorded: false };
    }
    this.store.handOffs.push({ ...handOff, accountId });
    return { contact, recorded: true };
  }
}
