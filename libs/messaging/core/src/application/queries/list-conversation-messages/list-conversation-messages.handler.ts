import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page, isUuid } from '@leadflow/shared-kernel';
import { ConversationMessageView, ListConversationMessagesQuery } from '@leadflow/messaging-contracts';
import { ConversationNotFoundError } from '../../../domain/messaging.errors';
import { ConversationsReadModel } from '../../ports/conversations.ports';

/** Messages oldest first; 404 `resource_not_found` as GetConversationHandler. */
@QueryHandler(ListConversationMessagesQuery)
export class ListConversationMessagesHandler implements IQueryHandler<ListConversationMessagesQuery> {
  constructor(private readonly readModel: ConversationsReadModel) {}

  async execute({ accountId, conversationId, page }: ListConversationMessagesQuery): Promise<Page<ConversationMessageView>> {
    const messages = isUuid(conversationId) ? await this.readModel.messages(accountId, conversationId.toLowerCase(), page) : null;
    if (!messages) throw new ConversationNotFoundError();
    return messages;
  }
}
