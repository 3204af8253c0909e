import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { GetPublicQuoteQuery } from './get-public-quote.query';
import { PublicQuote } from './public-quote';
import { PublicPageHandler } from '../../public-page.base';

/** The public page without effect. */
@QueryHandler(GetPublicQuoteQuery)
export class GetPublicQuoteHandler extends PublicPageHandler implements IQueryHandler<GetPublicQuoteQuery> {
  execute({ token }: GetPublicQuoteQuery): Promise<PublicQuote | null> {
    return this.show(token);
  }
}
