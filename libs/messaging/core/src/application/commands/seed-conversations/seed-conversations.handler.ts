import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, UnitOfWork } from '@leadflow/shared-kernel';
import { SeedConversationsCommand } from '@leadflow/messaging-contracts';
import { seedConversations } from '../../../domain/conversation';
import { ConversationRepository } from '../../ports/conversations.ports';

/** Operator blueprint `conversations`: validates every thread, then writes them all (caller's transaction). */
@CommandHandler(SeedConversationsCommand)
export class SeedConversationsHandler implements ICommandHandler<SeedConversationsCommand> {
  constructor(
    private readonly repository: ConversationRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, conversations: specs }: SeedConversationsCommand): Promise<string[]> {
    if (specs.length === 0) return [];
    const conversations = seedConversations(accountId, specs, this.clock.now());
    await this.unitOfWork.run(() => this.repository.insert(conversations));
    return conversations.map((conversation) => conversation.id);
  }
}
