import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';
import type { QuotePatch } from '../../../domain/quote.aggregate';

/** `PATCH /v1/quotes/{id}`. See UpdateQuoteHandler. */
export class UpdateQuoteCommand extends Command<QuoteView> {
  constructor(
    readonly accountId: AccountId,
    readonly quoteId: string,
    readonly patch: QuotePatch,
    readonly actor: Actor,
  ) {
    super();
  }
}
