import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page } from '@leadflow/shared-kernel';
import type { TagView } from '@leadflow/contacts-contracts';
import { ContactsReadModel } from '../../ports/contacts.read-model.port';
import { ListTagsQuery } from './list-tags.query';

/** `GET /v1/tags`: sort `name ASC, id ASC`. */
@QueryHandler(ListTagsQuery)
export class ListTagsHandler implements IQueryHandler<ListTagsQuery> {
  constructor(private readonly reads: ContactsReadModel) {}

  execute({ accountId, page }: ListTagsQuery): Promise<Page<TagView>> {
    return this.reads.listTags(accountId, page);
  }
}
