import { Command } from '@nestjs/cqrs';
import { PublicQuote } from '../../queries/get-public-quote/public-quote';

/** The public page (`GET /q/{token}`): marks a sent quote viewed; null for an unknown token or an archived quote. */
export class OpenPublicQuoteCommand extends Command<PublicQuote | null> {
  constructor(readonly token: string) {
    super();
  }
}
