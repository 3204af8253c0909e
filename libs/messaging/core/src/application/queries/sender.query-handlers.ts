import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GetDefaultSenderQuery, ListSendersQuery, SenderView } from '@leadflow/messaging-contracts';
import { SenderRepository } from '../ports/sender.repository.port';

@QueryHandler(GetDefaultSenderQuery)
export class GetDefaultSenderHandler implements IQueryHandler<GetDefaultSenderQuery> {
  constructor(private readonly repository: SenderRepository) {}

  execute({ accountId }: GetDefaultSenderQuery): Promise<SenderView | null> {
    return this.repository.findDefault(accountId);
  }
}

@QueryHandler(ListSendersQuery)
export class ListSendersHandler implements IQueryHandler<ListSendersQuery> {
  constructor(private readonly repository: SenderRepository) {}

  execute({ accountId }: ListSendersQuery): Promise<SenderView[]> {
    return this.repository.list(accountId);
  }
}
