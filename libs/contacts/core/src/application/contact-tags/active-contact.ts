import type { AccountId } from '@leadflow/shared-kernel';
import { ContactNotFoundError } from '../../domain/contacts.errors';
import { ContactsRepository } from '../ports/contacts.repository.port';

/** Locks the unmerged contact and returns its id; 404 `not_found` for a missing or merged contact. */
export async function lockActiveContact(contacts: ContactsRepository, accountId: AccountId, contactId: string): Promise<string> {
  const state = await contacts.findContact(accountId, contactId, { lock: true });
  if (!state || state.mergedIntoId) throw new ContactNotFoundError();
  return state.id;
}
