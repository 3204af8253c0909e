import { Injectable } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccountId, Actor, centsToDollars, Clock, DomainError, Journal, newId, UnitOfWork } from '@leadflow/shared-kernel';
import { ApplyQuoteLeadActionCommand, ArchiveQuoteCommand, LEAD_ACTOR, LeadAction, QUOTE_EVENTS, QuoteView } from '@leadflow/quotes-contracts';
import { localDate } from '../../domain/dates';
import { Quote, QuoteState } from '../../domain/quote.aggregate';
import { QuoteNotFoundError } from '../../domain/quotes.errors';
import { QuoteAccounts, QuotePublicLinks } from '../ports/quote-collaborators.port';
import { QuoteRepository } from '../ports/quote.repository.port';
import { readPublicToken } from '../public-token';
import { quoteEvent, toQuoteView } from '../views';
import { DEFAULT_QUOTE_SETTINGS } from './quote-settings';
import { ApplyPublicQuoteActionCommand, GetPublicQuoteQuery, OpenPublicQuoteCommand, PublicQuote } from './quote.commands';

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

/**
 * Published: `POST /admin/v1/accounts/{account_id}/quotes/{quote_id}/lead-actions` (see
 * ApplyQuoteLeadActionCommand and Quote.applyLeadAction for the from-states). 404 `resource_not_found`
 * for a missing, archived or other account's quote.
 */
@CommandHandler(ApplyQuoteLeadActionCommand)
export class ApplyQuoteLeadActionHandler implements ICommandHandler<ApplyQuoteLeadActionCommand> {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly runner: LeadActionRunner,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute({ accountId, quoteId, action, actor }: ApplyQuoteLeadActionCommand): Promise<QuoteView> {
    return this.unitOfWork.run(async () => {
      const state = await this.quotes.find(accountId, quoteId, { lock: 'wait' });
      if (!state || state.archivedAt) throw new QuoteNotFoundError();
      return this.runner.apply(accountId, state, action, actor);
    });
  }
}

/** Shared by the public page's commands: the quote of a token (locked), null when unknown or archived. */
@Injectable()
abstract class PublicPageHandler {
  constructor(
    protected readonly quotes: QuoteRepository,
    protected readonly accounts: QuoteAccounts,
    protected readonly runner: LeadActionRunner,
    protected readonly unitOfWork: UnitOfWork,
    protected readonly clock: Clock,
  ) {}

  protected async show(token: string): Promise<PublicQuote | null> {
    const parsed = readPublicToken(token);
    if (!parsed) return null;
    const state = await this.quotes.findByTokenHash(parsed.accountId, parsed.hash);
    if (!state || state.archivedAt) return null;
    const settings = (await this.accounts.settings(parsed.accountId)) ?? DEFAULT_QUOTE_SETTINGS;
    return { quote: this.runner.view(state), businessName: settings.name, today: localDate(this.clock.now(), state.timezone) };
  }

  protected run(token: string, action: LeadAction): Promise<PublicQuote | null> {
    const parsed = readPublicToken(token);
    if (!parsed) return Promise.resolve(null);
    return this.unitOfWork.run(async () => {
      const state = await this.quotes.findByTokenHash(parsed.accountId, parsed.hash, { lock: true });
      if (!state || state.archivedAt) return null;
      const quote = await this.runner.apply(parsed.accountId, state, action, LEAD_ACTOR);
      const settings = (await this.accounts.settings(parsed.accountId)) ?? DEFAULT_QUOTE_SETTINGS;
      return { quote, businessName: settings.name, today: localDate(this.clock.now(), state.timezone) };
    });
  }
}

/** `GET /q/{token}`: a sent quote becomes `viewed`; other statuses are shown as they are (a cancelled one says so). */
@CommandHandler(OpenPublicQuoteCommand)
export class OpenPublicQuoteHandler extends PublicPageHandler implements ICommandHandler<OpenPublicQuoteCommand> {
  async execute({ token }: OpenPublicQuoteCommand): Promise<PublicQuote | null> {
    try {
      return await this.run(token, 'view');
    } catch (error) {
      if (error instanceof DomainError && error.code === 'quote_cancelled') return this.show(token);
      throw error;
    }
  }
}

/** The public page without effect. */
@QueryHandler(GetPublicQuoteQuery)
export class GetPublicQuoteHandler extends PublicPageHandler implements IQueryHandler<GetPublicQuoteQuery> {
  execute({ token }: GetPublicQuoteQuery): Promise<PublicQuote | null> {
    return this.show(token);
  }
}

/** `POST /q/{token}/sign` and `/decline`. */
@CommandHandler(ApplyPublicQuoteActionCommand)
export class ApplyPublicQuoteActionHandler extends PublicPageHandler implements ICommandHandler<ApplyPublicQuoteActionCommand> {
  execute({ token, action }: ApplyPublicQuoteActionCommand): Promise<PublicQuote | null> {
    return this.run(token, action);
  }
}

/** Published: archives a quote (idempotent); it leaves lists and answers 404 to PATCH, send and lead actions. */
@CommandHandler(ArchiveQuoteCommand)
export class ArchiveQuoteHandler implements ICommandHandler<ArchiveQuoteCommand> {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly links: QuotePublicLinks,
  ) {}

  execute({ accountId, quoteId, actor }: ArchiveQuoteCommand): Promise<QuoteView> {
    return this.unitOfWork.run(async () => {
      const state = await this.quotes.find(accountId, quoteId, { lock: 'wait' });
      if (!state) throw new QuoteNotFoundError();
      const quote = Quote.restore(state);
      const now = this.clock.now();
      const view = () => toQuoteView(quote.snapshot, this.links);
      if (!quote.archive(now)) return view();
      await this.quotes.update(quote.snapshot);
      await this.journal.record(
        accountId,
        [{ contactId: state.contactId, type: QUOTE_EVENTS.archived, actor, data: { quote_id: quote.id } }],
        [quoteEvent(QUOTE_EVENTS.archived, accountId, actor, now, view())],
      );
      return view();
    });
  }
}
