import { Injectable } from '@nestjs/common';
import { Actor, Clock, UnitOfWork } from '@leadflow/shared-kernel';
import type { LeadAction } from '@leadflow/quotes-contracts';
import { localDate } from '../domain/dates';
import { QuoteAccounts } from './ports/quote-collaborators.port';
import { QuoteRepository } from './ports/quote.repository.port';
import { readPublicToken } from './public-token';
import { DEFAULT_QUOTE_SETTINGS } from './commands/quote-settings';
import { PublicQuote } from './queries/get-public-quote/public-quote';
import { LeadActionRunner } from './lead-action.runner';

/** Shared by the public page's commands: the quote of a token (locked), null when unknown or archived. */
@Injectable()
export abstract class PublicPageHandler {
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

  /** Applies the lead's `action` as `actor` (the lead, LEAD_ACTOR, carrying the page request's id). */
  protected run(token: string, action: LeadAction, actor: Actor): Promise<PublicQuote | null> {
    const parsed = readPublicToken(token);
    if (!parsed) return Promise.resolve(null);
    return this.unitOfWork.run(async () => {
      const state = await this.quotes.findByTokenHash(parsed.accountId, parsed.hash, { lock: true });
      if (!state || state.archivedAt) return null;
      const quote = await this.runner.apply(parsed.accountId, state, action, actor);
      const settings = (await this.accounts.settings(parsed.accountId)) ?? DEFAULT_QUOTE_SETTINGS;
      return { quote, businessName: settings.name, today: localDate(this.clock.now(), state.timezone) };
    });
  }
}
