import { Command } from '@nestjs/cqrs';
import { LEAD_ACTOR } from '@leadflow/quotes-contracts';
import type { Actor } from '@leadflow/shared-kernel';
import { PublicQuote } from '../../queries/get-public-quote/public-quote';

/**
 * The public page (`GET /q/{token}`): marks a sent quote viewed; null for an unknown token or an archived
 * quote. `actor`: the lead (LEAD_ACTOR), as the page's request hands it down (carrying its request id).
 */
export class OpenPublicQuoteCommand extends Command<PublicQuote | null> {
  constructor(
    readonly token: string,
    readonly actor: Actor = LEAD_ACTOR,
  ) {
    super();
  }
}
