import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Page } from '@leadflow/shared-kernel';
import { ListOutgoingEmailsQuery, OutgoingEmailSummary } from '@leadflow/messaging-contracts';
import { OutgoingEmailsReadModel } from '../../ports/outgoing-emails.read-model.port';

@QueryHandler(ListOutgoingEmailsQuery)
export class ListOutgoingEmailsHandler implements IQueryHandler<ListOutgoingEmailsQuery> {
  constructor(private readonly readModel: OutgoingEmailsReadModel) {}

  execute({ accountId, page }: ListOutgoingEmailsQuery): Promise<Page<OutgoingEmailSummary>> {
    return this.readModel.list(accountId, page);
  }
}
