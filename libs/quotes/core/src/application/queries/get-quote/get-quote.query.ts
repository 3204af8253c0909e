import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';

/** `GET /v1/quotes/{id}`: 404 `resource_not_found` for a missing, archived or other account's quote. */
export class GetQuoteQuery extends Query<QuoteView> {
  constructor(
    readonly accountId: AccountId,
    readonly quoteId: string,
  ) {
    super();
  }
}
