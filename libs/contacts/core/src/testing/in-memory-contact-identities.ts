import type { AccountId } from '@leadflow/shared-kernel';
import { ContactIdentityRepository, IdentityOwner } from '../application/ports/contact-identity.repository.port';
import type { Identity, IdentityKind } from '../domain/contact-identity';
import { IdentityTakenError } from '../domain/contacts.errors';
import { InMemoryContactsStore } from './in-memory-contacts.store';

/** {@link ContactIdentityRepository} over the store, with the unique identity rule of the table. */
export class InMemoryContactIdentityRepository extends ContactIdentityRepository {
  constructor(private readonly store: InMemoryContactsStore) {
    super();
  }

  async setPrimaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string | null): Promise<void> {
    this.store.identities = this.store.identities.filter(
      (row) => !(row.accountId === accountId && row.contactId === contactId && row.kind === kind && row.isPrimary && row.value !== value),
    );
    if (value === null) return;
    const existing = this.store.identities.find((row) => row.accountId === accountId && row.kind === kind && row.value === value);
    if (existing && existing.contactId !== contactId) throw new IdentityTakenError(kind);
    if (existing) existing.isPrimary = true;
    else this.store.insertIdentity({ accountId, contactId, kind, value, isPrimary: true });
  }
  async addSecondaryIdentity(accountId: AccountId, contactId: string, kind: IdentityKind, value: string): Promise<boolean> {
    if (this.store.identities.some((row) => row.accountId === accountId && row.kind === kind && row.value === value)) return false;
    this.store.insertIdentity({ accountId, contactId, kind, value, isPrimary: false });
    return true;
  }
  async findIdentityOwners(accountId: AccountId, identities: readonly Identity[]): Promise<IdentityOwner[]> {
    return this.store.identities
      .filter((row) => row.accountId === accountId && identities.some((identity) => identity.kind === row.kind && identity.value === row.value))
      .map((row) => ({ kind: row.kind, value: row.value, contactId: row.contactId, survivorId: this.store.survivorOf(row.contactId) }));
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
}
