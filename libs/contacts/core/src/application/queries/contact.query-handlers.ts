import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page } from '@leadflow/shared-kernel';
import type { ContactView, TagView } from '@leadflow/contacts-contracts';
import { ContactNotFoundError } from '../../domain/contacts.errors';
import { ContactsReadModel } from '../ports/contacts.read-model.port';
import { ContactListPage, GetContactQuery, GetContactTimelineQuery, ListContactsQuery, ListTagsQuery } from './contact.queries';

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

/** `GET /v1/contacts/{id}/timeline` stub: 404 `not_found`, else an empty page (pagination validated by the caller, not applied). */
@QueryHandler(GetContactTimelineQuery)
export class GetContactTimelineHandler implements IQueryHandler<GetContactTimelineQuery> {
  constructor(private readonly reads: ContactsReadModel) {}

  async execute({ accountId, contactId, page }: GetContactTimelineQuery): Promise<Page<never>> {
    if (!(await this.reads.getContact(accountId, contactId))) throw new ContactNotFoundError();
    return { data: [], pagination: { next_cursor: null, has_more: false, limit: page.limit, total_count: 0 } };
  }
}

/** `GET /v1/tags`: sort `name ASC, id ASC`. */
@QueryHandler(ListTagsQuery)
export class ListTagsHandler implements IQueryHandler<ListTagsQuery> {
  constructor(private readonly reads: ContactsReadModel) {}

  execute({ accountId, page }: ListTagsQuery): Promise<Page<TagView>> {
    return this.reads.listTags(accountId, page);
  }
}
