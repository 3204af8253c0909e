import { Command } from '@nestjs/cqrs';
import { LEAD_ACTOR, LeadAction } from '@leadflow/quotes-contracts';
import type { Actor } from '@leadflow/shared-kernel';
import { PublicQuote } from '../../queries/get-public-quote/public-quote';

/**
 * The public page's Sign and Decline buttons. Null for an unknown token; refusals as
 * ApplyQuoteLeadActionCommand. `actor`: the lead (LEAD_ACTOR), as the page's request hands it down
 * (carrying its request id, which the write's outbox rows get).
 */
export class ApplyPublicQuoteActionCommand extends Command<PublicQuote | null> {
  constructor(
    readonly token: string,
    readonly action: Extract<LeadAction, 'sign' | 'decline'>,
    readonly actor: Actor = LEAD_ACTOR,
  ) {
    super();
  }
}
