import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { QuoteView } from '@leadflow/quotes-contracts';
import { QuoteNotFoundError } from '../../../domain/quotes.errors';
import { GetQuoteQuery } from './get-quote.query';
import { QuotePublicLinks } from '../../ports/quote-collaborators.port';
import { QuoteRepository } from '../../ports/quote.repository.port';
import { toQuoteView } from '../../views';

/** `GET /v1/quotes/{id}`: 404 `resource_not_found` for a missing, archived or other account's quote. */
@QueryHandler(GetQuoteQuery)
export class GetQuoteHandler implements IQueryHandler<GetQuoteQuery> {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly links: QuotePublicLinks,
  ) {}

  async execute({ accountId, quoteId }: GetQuoteQuery): Promise<QuoteView> {
    const state = await this.quotes.find(accountId, quoteId);
    if (!state || state.archivedAt) throw new QuoteNotFoundError();
    return toQuoteView(state, this.links);
  }
}
