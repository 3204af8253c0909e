import { Command, Query } from '@nestjs/cqrs';
import type { AccountId, Actor, Page } from '@leadflow/shared-kernel';
import type { LeadAction, QuoteView } from '@leadflow/quotes-contracts';
import type { NewQuoteInput, QuotePatch } from '../../domain/quote.aggregate';
import type { QuoteListFilter } from '../ports/quotes.read-model.port';

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

/** The public page (`GET /q/{token}`): marks a sent quote viewed; null for an unknown token or an archived quote. */
export class OpenPublicQuoteCommand extends Command<PublicQuote | null> {
  constructor(readonly token: string) {
    super();
  }
}

/** The public page's Sign and Decline buttons. Null for an unknown token; refusals as ApplyQuoteLeadActionCommand. */
export class ApplyPublicQuoteActionCommand extends Command<PublicQuote | null> {
  constructor(
    readonly token: string,
    readonly action: Extract<LeadAction, 'sign' | 'decline'>,
  ) {
    super();
  }
}

/** The public page without effect (after a refused Sign or Decline): null for an unknown token or an archived quote. */
export class GetPublicQuoteQuery extends Query<PublicQuote | null> {
  constructor(readonly token: string) {
    super();
  }
}

/** A quote as its public page shows it. */
export interface PublicQuote {
  quote: QuoteView;
  businessName: string;
  /** Today in the quote's zone (`YYYY-MM-DD`): the page tells a passed validity date. */
  today: string;
}

/** `GET /v1/quotes`. */
export class ListQuotesQuery extends Query<Page<QuoteView>> {
  constructor(
    readonly accountId: AccountId,
    readonly filter: QuoteListFilter,
  ) {
    super();
  }
}

/** `GET /v1/quotes/{id}`: 404 `resource_not_found` for a missing, archived or other account's quote. */
export class GetQuoteQuery extends Query<QuoteView> {
  constructor(
    readonly accountId: AccountId,
    readonly quoteId: string,
  ) {
    super();
  }
}

