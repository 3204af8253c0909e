import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { QuoteView } from '@leadflow/quotes-contracts';
import type { NewQuoteInput } from '../../../domain/quote.aggregate';

/** `POST /v1/quotes`. See CreateQuoteHandler. */
export class CreateQuoteCommand extends Command<QuoteView> {
  constructor(
    readonly accountId: AccountId,
    readonly input: NewQuoteInput,
    readonly actor: Actor,
  ) {
    super();
  }
}
