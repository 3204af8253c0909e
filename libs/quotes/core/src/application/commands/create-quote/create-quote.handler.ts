import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork, newId } from '@leadflow/shared-kernel';
import { QUOTE_EVENTS, QuoteView } from '@leadflow/quotes-contracts';
import { addDays, localDate, localYear } from '../../../domain/dates';
import { Quote } from '../../../domain/quote.aggregate';
import { formatQuoteNumber } from '../../../domain/quote-number';
import { QuoteAccounts, QuoteContacts, QuotePublicLinks } from '../../ports/quote-collaborators.port';
import { QuoteRepository } from '../../ports/quote.repository.port';
import { quoteEvent, toQuoteView } from '../../views';
import { DEFAULT_QUOTE_SETTINGS } from '../quote-settings';
import { CreateQuoteCommand } from './create-quote.command';
import { checkReferences } from '../quote-references';

/**
 * `POST /v1/quotes` (public-api-v1 › Endpoints › Quotes, States › Quote "(created)"): a draft with the
 * next number of the account's sequence (`<YYYY>-<NNNN>`, the year in the account's zone) and the
 * account defaults: `valid_until` = today in the account's zone + `quote_defaults.validity_days`,
 * `payment_terms`, `signature_payment_order`, tax profile. Omitted prospect fields are read from the
 * contact. Errors: 400 `validation_error` (values; `contact_id` / `sales_rep_id` `not_found_in_tenant`).
 * Writes the quote, a `quote_created` activity and outbox event in one transaction.
 */
@CommandHandler(CreateQuoteCommand)
export class CreateQuoteHandler implements ICommandHandler<CreateQuoteCommand> {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly accounts: QuoteAccounts,
    private readonly contacts: QuoteContacts,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly links: QuotePublicLinks,
  ) {}

  async execute({ accountId, input, actor }: CreateQuoteCommand): Promise<QuoteView> {
    Quote.checkNew(input);
    const { contact } = await checkReferences(accountId, input, { contacts: this.contacts, accounts: this.accounts });
    const settings = (await this.accounts.settings(accountId)) ?? DEFAULT_QUOTE_SETTINGS;
    const now = this.clock.now();
    const today = localDate(now, settings.timezone);
    return this.unitOfWork.run(async () => {
      const sequence = await this.quotes.nextSequence(accountId, localYear(now, settings.timezone));
      const quote = Quote.create(input, {
        id: newId(),
        accountId,
        quoteNumber: formatQuoteNumber(localYear(now, settings.timezone), sequence),
        now,
        defaultValidUntil: addDays(today, settings.defaults.validityDays),
        timezone: settings.timezone,
        defaults: settings.defaults,
        contact: contact && {
          id: contact.id,
          name: [contact.first_name, contact.last_name].filter(Boolean).join(' ') || null,
          email: contact.email,
          phone: contact.phone,
          company: contact.company,
        },
      });
      await this.quotes.insert(quote.snapshot);
      const view = toQuoteView(quote.snapshot, this.links);
      await this.journal.record(
        accountId,
        [{ contactId: view.contact_id, type: 'quote_created', actor, data: { quote_id: view.id, quote_number: view.quote_number } }],
        [quoteEvent(QUOTE_EVENTS.created, accountId, actor, now, view)],
      );
      return view;
    });
  }
}
