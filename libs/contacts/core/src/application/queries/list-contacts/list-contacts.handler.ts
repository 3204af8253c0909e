import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ContactsReadModel } from '../../ports/contacts.read-model.port';
import { ContactListPage, ListContactsQuery } from './list-contacts.query';

/** Splits `search` on whitespace into literal words (empty → no filter). */
export function searchWords(search: string | null): string[] {
  return (search ?? '').split(/\s+/u).filter((word) => word.length > 0);
}

/** `GET /v1/contacts`: merged contacts excluded, archived ones included; `meta.custom_field_definitions` on request. */
@QueryHandler(ListContactsQuery)
export class ListContactsHandler implements IQueryHandler<ListContactsQuery> {
  constructor(private readonly reads: ContactsReadModel) {}

  async execute({ accountId, options }: ListContactsQuery): Promise<ContactListPage> {
    const page = await this.reads.listContacts(accountId, {
      words: searchWords(options.search),
      tagId: options.tagId,
      page: options.page,
      expandTags: options.expandTags,
    });
    if (!options.includeDefinitions) return page;
    return { ...page, meta: { custom_field_definitions: await this.reads.listDefinitions(accountId) } };
  }
}
