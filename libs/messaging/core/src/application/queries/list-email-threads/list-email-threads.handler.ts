import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Page } from '@leadflow/shared-kernel';
import { EmailThreadView, ListEmailThreadsQuery } from '@leadflow/messaging-contracts';
import { EmailThreadsReadModel } from '../../ports/email-threads.ports';

@QueryHandler(ListEmailThreadsQuery)
export class ListEmailThreadsHandler implements IQueryHandler<ListEmailThreadsQuery> {
  constructor(private readonly readModel: EmailThreadsReadModel) {}

  execute({ accountId, page }: ListEmailThreadsQuery): Promise<Page<EmailThreadView>> {
    return this.readModel.list(accountId, page);
  }
}
