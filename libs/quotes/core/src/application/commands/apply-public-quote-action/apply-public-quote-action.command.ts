import { Command } from '@nestjs/cqrs';
import type { LeadAction } from '@leadflow/quotes-contracts';
import { PublicQuote } from '../../queries/get-public-quote/public-quote';

/** The public page's Sign and Decline buttons. Null for an unknown token; refusals as ApplyQuoteLeadActionCommand. */
export class ApplyPublicQuoteActionCommand extends Command<PublicQuote | null> {
  constructor(
    readonly token: string,
    readonly action: Extract<LeadAction, 'sign' | 'decline'>,
  ) {
    super();
  }
}
