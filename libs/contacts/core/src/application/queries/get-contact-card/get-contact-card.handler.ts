import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContactCard, GetContactCardQuery } from '@leadflow/contacts-contracts';
import type { ContactState } from '../../../domain/contact.aggregate';
import { ContactsRepository } from '../../ports/contacts.repository.port';

/** Published query: a contact's card for another context (null for a missing, merged or other account's contact). */
@QueryHandler(GetContactCardQuery)
export class GetContactCardHandler implements IQueryHandler<GetContactCardQuery> {
  constructor(private readonly contacts: ContactsRepository) {}

  async execute({ accountId, contactId }: GetContactCardQuery): Promise<ContactCard | null> {
    const state = await this.contacts.findContact(accountId, contactId);
    if (!state || state.mergedIntoId) return null;
    return toContactCard(state);
  }
}

/** The {@link ContactCard} other contexts copy from a contact (shared by the published card queries). */
export function toContactCard(state: Readonly<ContactState>): ContactCard {
  return {
    id: state.id,
    first_name: state.firstName,
    last_name: state.lastName,
    email: state.email,
    phone: state.phone,
    company: state.company,
    archived: state.archivedAt !== null,
  };
}
