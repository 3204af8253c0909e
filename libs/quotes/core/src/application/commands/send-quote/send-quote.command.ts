import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';

/** `POST /v1/quotes/{id}/send`. See SendQuoteHandler. */
export class SendQuoteCommand extends Command<QuoteView> {
  constructor(
    readonly accountId: AccountId,
    readonly quoteId: string,
    readonly actor: Actor,
  ) {
    super();
  }
}
