import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListSendersQuery, SenderView } from '@leadflow/messaging-contracts';
import { SenderRepository } from '../../ports/sender.repository.port';

@QueryHandler(ListSendersQuery)
export class ListSendersHandler implements IQueryHandler<ListSendersQuery> {
  constructor(private readonly repository: SenderRepository) {}

  execute({ accountId }: ListSendersQuery): Promise<SenderView[]> {
    return this.repository.list(accountId);
  }
}
