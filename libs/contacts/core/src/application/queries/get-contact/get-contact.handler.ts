import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ContactView } from '@leadflow/contacts-contracts';
import { ContactNotFoundError } from '../../../domain/contacts.errors';
import { ContactsReadModel } from '../../ports/contacts.read-model.port';
import { GetContactQuery } from './get-contact.query';

/** `GET /v1/contacts/{id}`: 404 `not_found` (missing, merged, other account). */
@QueryHandler(GetContactQuery)
export class GetContactHandler implements IQueryHandler<GetContactQuery> {
  constructor(private readonly reads: ContactsReadModel) {}

  async execute({ accountId, contactId, expandTags }: GetContactQuery): Promise<ContactView> {
    const contact = await this.reads.getContact(accountId, contactId, { expandTags });
    if (!contact) throw new ContactNotFoundError();
    return contact;
  }
}
