import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page } from '@leadflow/shared-kernel';
import { ContactNotFoundError } from '../../../domain/contacts.errors';
import { ContactsReadModel } from '../../ports/contacts.read-model.port';
import { GetContactTimelineQuery } from './get-contact-timeline.query';

/** `GET /v1/contacts/{id}/timeline` stub: 404 `not_found`, else an empty page (pagination validated by the caller, not applied). */
@QueryHandler(GetContactTimelineQuery)
export class GetContactTimelineHandler implements IQueryHandler<GetContactTimelineQuery> {
  constructor(private readonly reads: ContactsReadModel) {}

  async execute({ accountId, contactId, page }: GetContactTimelineQuery): Promise<Page<never>> {
    if (!(await this.reads.getContact(accountId, contactId))) throw new ContactNotFoundError();
    return { data: [], pagination: { next_cursor: null, has_more: false, limit: page.limit, total_count: 0 } };
  }
}
