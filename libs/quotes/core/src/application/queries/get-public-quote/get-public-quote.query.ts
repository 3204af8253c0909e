import { Query } from '@nestjs/cqrs';
import { PublicQuote } from './public-quote';

/** The public page without effect (after a refused Sign or Decline): null for an unknown token or an archived quote. */
export class GetPublicQuoteQuery extends Query<PublicQuote | null> {
  constructor(readonly token: string) {
    super();
  }
}
