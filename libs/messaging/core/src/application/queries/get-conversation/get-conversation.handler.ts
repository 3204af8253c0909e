import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid } from '@leadflow/shared-kernel';
import { ConversationView, GetConversationQuery } from '@leadflow/messaging-contracts';
import { ConversationNotFoundError } from '../../../domain/messaging.errors';
import { ConversationsReadModel } from '../../ports/conversations.ports';

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
