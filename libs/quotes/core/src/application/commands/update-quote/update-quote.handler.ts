import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { QUOTE_EVENTS, QuoteView } from '@leadflow/quotes-contracts';
import { Quote } from '../../../domain/quote.aggregate';
import { QuoteNotFoundError } from '../../../domain/quotes.errors';
import { QuoteAccounts, QuoteContacts, QuotePublicLinks } from '../../ports/quote-collaborators.port';
import { QuoteRepository } from '../../ports/quote.repository.port';
import { quoteEvent, toQuoteView } from '../../views';
import { DEFAULT_QUOTE_SETTINGS } from '../quote-settings';
import { checkReferences } from '../quote-references';
import { UpdateQuoteCommand } from './update-quote.command';

/**
 * `PATCH /v1/quotes/{id}` rules 1–6 (public-api-v1 › Endpoints › Quotes), in this order: 400 `no_fields`,
 * 400 `validation_error` (`exclusive_field`, values, `sales_rep_id` `not_found_in_tenant`), 404
 * `resource_not_found` (missing, archived, other account's), 409 `status_locked`, `payment_plan_locked`,
 * `signature_payment_order_locked`, 400 `validation_error` for inconsistent plan fields. Totals are
 * recomputed. A change writes `quote_updated` (or `quote_declined` / `quote_cancelled`) activity and
 * outbox event; a PATCH that changes nothing writes nothing.
 */
@CommandHandler(UpdateQuoteCommand)
export class UpdateQuoteHandler implements ICommandHandler<UpdateQuoteCommand> {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly accounts: QuoteAccounts,
    private readonly contacts: QuoteContacts,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly links: QuotePublicLinks,
  ) {}

  async execute({ accountId, quoteId, patch, actor }: UpdateQuoteCommand): Promise<QuoteView> {
    Quote.checkPatch(patch);
    await checkReferences(accountId, { salesRepId: patch.salesRepId }, { contacts: this.contacts, accounts: this.accounts });
    const accountTaxProfile =
      patch.taxProfileId === null ? ((await this.accounts.settings(accountId)) ?? DEFAULT_QUOTE_SETTINGS).defaults.taxProfile : DEFAULT_QUOTE_SETTINGS.defaults.taxProfile;
    return this.unitOfWork.run(async () => {
      const state = await this.quotes.find(accountId, quoteId, { lock: 'wait' });
      if (!state || state.archivedAt) throw new QuoteNotFoundError();
      const quote = Quote.restore(state);
      const now = this.clock.now();
      const changes = quote.update(patch, now, accountTaxProfile);
      const view = toQuoteView(quote.snapshot, this.links);
      if (Object.keys(changes).length === 0) return view;
      await this.quotes.update(quote.snapshot);
      const closed = patch.status === 'declined' ? QUOTE_EVENTS.declined : patch.status === 'cancelled' ? QUOTE_EVENTS.cancelled : null;
      const type = closed ?? QUOTE_EVENTS.updated;
      await this.journal.record(
        accountId,
        [{ contactId: view.contact_id, type, actor, data: { quote_id: view.id, changes } }],
        [quoteEvent(type, accountId, actor, now, view, { changes })],
      );
      return view;
    });
  }
}
