import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Page } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';
import { ListQuotesQuery } from './list-quotes.query';
import { QuotesReadModel } from '../../ports/quotes.read-model.port';

/** `GET /v1/quotes`: archived quotes excluded; `status` filter; `created_at DESC, id DESC`. */
@QueryHandler(ListQuotesQuery)
export class ListQuotesHandler implements IQueryHandler<ListQuotesQuery> {
  constructor(private readonly reads: QuotesReadModel) {}

  execute({ accountId, filter }: ListQuotesQuery): Promise<Page<QuoteView>> {
    return this.reads.list(accountId, filter);
  }
}
