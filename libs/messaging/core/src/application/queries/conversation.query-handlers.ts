import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid, Page } from '@leadflow/shared-kernel';
import {
  ConversationMessageView,
  ConversationView,
  GetConversationQuery,
  ListConversationMessagesQuery,
  ListConversationsQuery,
} from '@leadflow/messaging-contracts';
import { ConversationNotFoundError } from '../../domain/messaging.errors';
import { ConversationsReadModel } from '../ports/conversations.ports';

@QueryHandler(ListConversationsQuery)
export class ListConversationsHandler implements IQueryHandler<ListConversationsQuery> {
  constructor(private readonly readModel: ConversationsReadModel) {}

  execute({ accountId, filter, page }: ListConversationsQuery): Promise<Page<ConversationView>> {
    return this.readModel.list(accountId, filter, page);
  }
}

/** 404 `resource_not_found` for a missing, foreign or non-UUID id (all alike). */
@QueryHandler(GetConversationQuery)
export class GetConversationHandler implements IQueryHandler<GetConversationQuery> {
  constructor(private readonly readModel: ConversationsReadModel) {}

  async execute({ accountId, conversationId }: GetConversationQuery): Promise<ConversationView> {
    const conversation = isUuid(conversationId) ? await this.readModel.get(accountId, conversationId.toLowerCase()) : null;
    if (!conversation) throw new ConversationNotFoundError();
    return conversation;
  }
}

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
