import { Injectable } from '@nestjs/common';
import { AccountId, Actor, Clock, Journal, centsToDollars, newId } from '@leadflow/shared-kernel';
import { LeadAction, QUOTE_EVENTS, QuoteView } from '@leadflow/quotes-contracts';
import { localDate } from '../domain/dates';
import { Quote, QuoteState } from '../domain/quote.aggregate';
import { QuotePublicLinks } from './ports/quote-collaborators.port';
import { QuoteRepository } from './ports/quote.repository.port';
import { quoteEvent, toQuoteView } from './views';

const EVENT_OF: Record<LeadAction, string> = {
  view: QUOTE_EVENTS.viewed,
  sign: QUOTE_EVENTS.signed,
  decline: QUOTE_EVENTS.declined,
  pay: QUOTE_EVENTS.paymentReceived,
};

/** Applies a lead action to a locked quote and records it (activity, outbox, payment) when it changed something. */
@Injectable()
export class LeadActionRunner {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly links: QuotePublicLinks,
  ) {}

  /** The read shape of a quote (with its `public_url`). */
  view(state: QuoteState): QuoteView {
    return toQuoteView(state, this.links);
  }

  async apply(accountId: AccountId, state: QuoteState, action: LeadAction, actor: Actor): Promise<QuoteView> {
    const quote = Quote.restore(state);
    const now = this.clock.now();
    const outcome = quote.applyLeadAction(action, now, localDate(now, state.timezone));
    const view = this.view(quote.snapshot);
    if (!outcome.changed) return view;
    await this.quotes.update(quote.snapshot);
    const payment = outcome.paymentCents === null ? null : { id: newId(), amount: centsToDollars(outcome.paymentCents) };
    if (payment && outcome.paymentCents !== null) {
      await this.quotes.insertPayment(accountId, { id: payment.id, quoteId: quote.id, amountCents: outcome.paymentCents, recordedAt: now });
    }
    const events = [quoteEvent(EVENT_OF[action], accountId, actor, now, view, payment ? { payment } : {})];
    if (action === 'pay' && view.status === 'paid' && state.status !== 'paid') events.push(quoteEvent(QUOTE_EVENTS.paid, accountId, actor, now, view));
    await this.journal.record(
      accountId,
      [{ contactId: view.contact_id, type: EVENT_OF[action], actor, data: { quote_id: view.id, status: view.status, ...(payment ? { payment } : {}) } }],
      events,
    );
    return view;
  }
}
