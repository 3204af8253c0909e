import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GetDefaultSenderQuery, SenderView } from '@leadflow/messaging-contracts';
import { SenderRepository } from '../../ports/sender.repository.port';

@QueryHandler(GetDefaultSenderQuery)
export class GetDefaultSenderHandler implements IQueryHandler<GetDefaultSenderQuery> {
  constructor(private readonly repository: SenderRepository) {}

  execute({ accountId }: GetDefaultSenderQuery): Promise<SenderView | null> {
    return this.repository.findDefault(accountId);
  }
}
