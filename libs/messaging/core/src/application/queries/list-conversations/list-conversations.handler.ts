import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page } from '@leadflow/shared-kernel';
import { ConversationView, ListConversationsQuery } from '@leadflow/messaging-contracts';
import { ConversationsReadModel } from '../../ports/conversations.ports';

@QueryHandler(ListConversationsQuery)
export class ListConversationsHandler implements IQueryHandler<ListConversationsQuery> {
  constructor(private readonly readModel: ConversationsReadModel) {}

  execute({ accountId, filter, page }: ListConversationsQuery): Promise<Page<ConversationView>> {
    return this.readModel.list(accountId, filter, page);
  }
}
