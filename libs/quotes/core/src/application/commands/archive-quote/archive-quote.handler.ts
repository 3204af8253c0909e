import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { ArchiveQuoteCommand, QUOTE_EVENTS, QuoteView } from '@leadflow/quotes-contracts';
import { Quote } from '../../../domain/quote.aggregate';
import { QuoteNotFoundError } from '../../../domain/quotes.errors';
import { QuotePublicLinks } from '../../ports/quote-collaborators.port';
import { QuoteRepository } from '../../ports/quote.repository.port';
import { quoteEvent, toQuoteView } from '../../views';

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
