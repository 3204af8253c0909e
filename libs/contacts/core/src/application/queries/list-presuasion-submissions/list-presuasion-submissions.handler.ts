import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Page } from '@leadflow/shared-kernel';
import type { PresuasionSubmissionView } from '@leadflow/contacts-contracts';
import { ContactsRepository } from '../../ports/contacts.repository.port';
import { PresuasionSubmissionsReadModel } from '../../ports/presuasion-submissions.port';
import { ListPresuasionSubmissionsQuery } from './list-presuasion-submissions.query';

/** See {@link ListPresuasionSubmissionsQuery}. A `contact_id` filter also matches the contacts merged into that contact. */
@QueryHandler(ListPresuasionSubmissionsQuery)
export class ListPresuasionSubmissionsHandler implements IQueryHandler<ListPresuasionSubmissionsQuery> {
  constructor(
    private readonly reads: PresuasionSubmissionsReadModel,
    private readonly contacts: ContactsRepository,
  ) {}

  async execute({ accountId, filter, page }: ListPresuasionSubmissionsQuery): Promise<Page<PresuasionSubmissionView>> {
    const contactIds = filter.contactId === null ? null : [filter.contactId, ...(await this.contacts.absorbedInto(accountId, filter.contactId))];
    return this.reads.list(accountId, { toolSlug: filter.toolSlug, contactIds, from: filter.from, to: filter.to, page });
  }
}
