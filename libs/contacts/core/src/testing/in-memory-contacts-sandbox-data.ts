import type { AccountId } from '@leadflow/shared-kernel';
import type { ContactsConfiguration } from '@leadflow/contacts-contracts';
import { ContactsSandboxData, ProvisionedTag } from '../application/ports/contacts-sandbox-data.port';
import { InMemoryContactsStore } from './in-memory-contacts.store';

/**
 * {@link ContactsSandboxData} over the store, answering like the PostgreSQL adapter: the same tables, in the
 * same order, in the reset's answer (the store holds no external ids, presuasion submissions or email
 * unsubscribes: those answer 0).
 */
export class InMemoryContactsSandboxData extends ContactsSandboxData {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async exportConfiguration(accountId: AccountId): Promise<ContactsConfiguration> {
    return {
      customFields: this.store.definitions.filter((row) => row.accountId === accountId).map((row) => ({ name: row.name, type: row.type, options: row.options ?? null })),
      tags: this.store.tags
        .filter((row) => row.accountId === accountId)
        .map((row) => ({ name: row.name, color: row.color, description: row.description, category: row.category, systemKey: row.systemKey })),
    };
  }

  async insertTags(accountId: AccountId, tags: readonly ProvisionedTag[], now: Date): Promise<void> {
    this.store.tags.push(...tags.map((tag) => ({ ...tag, accountId, createdAt: now, updatedAt: now })));
  }

  async deleteAccountData(accountId: AccountId): Promise<Record<string, number>> {
    const store = this.store;
    const drop = <T extends { accountId: string }>(rows: T[]): [T[], number] => {
      const kept = rows.filter((row) => row.accountId !== accountId);
      return [kept, rows.length - kept.length];
    };
    const deleted: Record<string, number> = {};
    [store.identities, deleted['contacts.contact_identities']] = drop(store.identities);
    [store.contactTags, deleted['contacts.contact_tags']] = drop(store.contactTags);
    [store.notes, deleted['contacts.contact_notes']] = drop(store.notes);
    deleted['contacts.contact_external_ids'] = 0;
    [store.captures, deleted['contacts.lead_captures']] = drop(store.captures);
    [store.handOffs, deleted['contacts.sms_handoffs']] = drop(store.handOffs);
    deleted['contacts.presuasion_submissions'] = 0;
    deleted['contacts.email_unsubscribes'] = 0;
    [store.contacts, deleted['contacts.contacts']] = drop(store.contacts);
    return deleted;
  }
}
