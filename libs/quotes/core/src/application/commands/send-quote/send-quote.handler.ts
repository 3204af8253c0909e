import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountId, Actor, Clock, DomainError, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { QUOTE_EVENTS, QuoteView } from '@leadflow/quotes-contracts';
import { localDate } from '../../../domain/dates';
import { Quote } from '../../../domain/quote.aggregate';
import { QuoteNotFoundError, RecipientUnsubscribedError, SendInProgressError, SenderUnavailableError } from '../../../domain/quotes.errors';
import { QuoteAccounts, QuoteContacts, QuoteMailer, QuotePublicLinks } from '../../ports/quote-collaborators.port';
import { QuoteRepository, QuoteRowLockedError } from '../../ports/quote.repository.port';
import { hashPublicToken } from '../../public-token';
import { quoteEmail } from '../../quote-email';
import { quoteEvent, toQuoteView } from '../../views';
import { DEFAULT_QUOTE_SETTINGS } from '../quote-settings';
import { SendQuoteCommand } from './send-quote.command';

/** `Nadia Bélanger` → first `Nadia`, last `Bélanger`. */
function splitName(name: string | null): { firstName: string | null; lastName: string | null } {
  const words = (name ?? '').trim().split(/\s+/u).filter(Boolean);
  return { firstName: words[0] ?? null, lastName: words.length > 1 ? words.slice(1).join(' ') : null };
}

/**
 * `POST /v1/quotes/{id}/send` (public-api-v1 › Endpoints › Quotes, States › Quote draft → sent), one
 * transaction: the quote's row is locked without waiting (a concurrent send: 409 `send_in_progress`),
 * the preconditions of {@link Quote.assertSendable} checked, the lead's contact found or created (never
 * duplicated; a new one fires the contact-created trigger), 409 `recipient_unsubscribed`, the email
 * queued from the active sales rep or else the account's default sender (none: 409
 * `sender_unavailable`) with the link `<PUBLIC_BASE_URL>/q/<token>` (the token derived from the quote, see
 * derivePublicToken; the view's `public_url`), then `sent`, `sent_at`, a
 * `quote_sent` activity and outbox event. Any refusal rolls everything back. A concurrent contact
 * creation for the same lead makes the attempt fail on the unique identity index; it is run once more.
 */
@CommandHandler(SendQuoteCommand)
export class SendQuoteHandler implements ICommandHandler<SendQuoteCommand> {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly accounts: QuoteAccounts,
    private readonly contacts: QuoteContacts,
    private readonly mailer: QuoteMailer,
    private readonly links: QuotePublicLinks,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, quoteId, actor }: SendQuoteCommand): Promise<QuoteView> {
    try {
      return await this.send(accountId, quoteId, actor);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'duplicate_resource') return this.send(accountId, quoteId, actor);
      throw error;
    }
  }

  private async send(accountId: AccountId, quoteId: string, actor: Actor): Promise<QuoteView> {
    const settings = (await this.accounts.settings(accountId)) ?? DEFAULT_QUOTE_SETTINGS;
    return this.unitOfWork.run(async () => {
      const state = await this.quotes.find(accountId, quoteId, { lock: 'nowait' }).catch((error: unknown) => {
        throw error instanceof QuoteRowLockedError ? new SendInProgressError() : error;
      });
      if (!state || state.archivedAt) throw new QuoteNotFoundError();
      const quote = Quote.restore(state);
      const now = this.clock.now();
      if (state.prospectEmail === null && state.contactId) {
        quote.completeProspectEmail((await this.contacts.card(accountId, state.contactId))?.email ?? null);
      }
      const recipient = quote.assertSendable(localDate(now, state.timezone));
      const rep = state.salesRepId ? await this.accounts.teamMember(accountId, state.salesRepId) : null;
      const contact = await this.contacts.findOrCreate(
        accountId,
        {
          contactId: state.contactId,
          email: recipient,
          phone: state.prospectPhone,
          company: state.prospectCompany,
          ...splitName(state.prospectName),
        },
        actor,
      );
      if (contact.email_unsubscribed) throw new RecipientUnsubscribedError();
      const token = this.links.tokenFor(accountId, quote.id);
      quote.markSent(now, contact.contact_id, hashPublicToken(token), recipient);
      const view = toQuoteView(quote.snapshot, this.links);
      const { subject, html } = quoteEmail(view, settings.name, this.links.pageUrl(token));
      try {
        await this.mailer.queue(accountId, {
          to: recipient,
          subject,
          html,
          type: 'quote',
          priority: 1,
          from: rep && rep.isActive ? { email: rep.email, name: rep.name } : null,
          replyTo: rep && rep.isActive ? rep.email : null,
          contactId: contact.contact_id,
          source: { kind: 'quote', id: view.id },
        });
      } catch (error) {
        if (error instanceof DomainError && error.code === 'no_sender_configured') throw new SenderUnavailableError();
        throw error;
      }
      await this.quotes.update(quote.snapshot);
      await this.journal.record(
        accountId,
        [{ contactId: contact.contact_id, type: 'quote_sent', actor, data: { quote_id: view.id, quote_number: view.quote_number, contact_created: contact.created } }],
        [quoteEvent(QUOTE_EVENTS.sent, accountId, actor, now, view, { contact_created: contact.created })],
      );
      return view;
    });
  }
}
