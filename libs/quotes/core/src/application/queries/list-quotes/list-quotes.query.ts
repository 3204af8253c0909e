import { Query } from '@nestjs/cqrs';
import type { AccountId, Page } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';
import type { QuoteListFilter } from '../../ports/quotes.read-model.port';

/** `GET /v1/quotes`. */
export class ListQuotesQuery extends Query<Page<QuoteView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: QuoteListFilter,
  ) {
    super();
  }
}
