import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, SYSTEM_ACTOR, UnitOfWork } from '@leadflow/shared-kernel';
import { ExpireQuotesCommand, QUOTE_EVENTS } from '@leadflow/quotes-contracts';
import { addDays, localDate } from '../../../domain/dates';
import { Quote } from '../../../domain/quote.aggregate';
import { QuotePublicLinks } from '../../ports/quote-collaborators.port';
import { QuoteRepository } from '../../ports/quote.repository.port';
import { quoteEvent, toQuoteView } from '../../views';

/**
 * States › Quote "validity date passes → expired": every draft, sent or viewed quote without payment
 * whose `valid_until` is before today — today in the zone of the quote's account (luxon, the injected
 * Clock) — becomes `expired`, with a `quote_expired` activity and outbox event. One transaction per
 * account and zone; rows another transaction holds are skipped (the next run takes them). Idempotent.
 */
@CommandHandler(ExpireQuotesCommand)
export class ExpireQuotesHandler implements ICommandHandler<ExpireQuotesCommand> {
  constructor(
    private readonly quotes: QuoteRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly links: QuotePublicLinks,
  ) {}

  async execute(_command: ExpireQuotesCommand): Promise<{ expired: number }> {
    const now = this.clock.now();
    // No zone is more than a day ahead of UTC: this bound keeps every candidate.
    const groups = await this.quotes.expiryGroups(addDays(localDate(now, 'UTC'), 2));
    let expired = 0;
    for (const { accountId, timezone } of groups) {
      const today = localDate(now, timezone);
      expired += await this.unitOfWork.run(async () => {
        let count = 0;
        for (const state of await this.quotes.lockExpiryCandidates(accountId, timezone, today)) {
          const quote = Quote.restore(state);
          if (!quote.expire(now, today)) continue;
          await this.quotes.update(quote.snapshot);
          const view = toQuoteView(quote.snapshot, this.links);
          await this.journal.record(
            accountId,
            [{ contactId: view.contact_id, type: QUOTE_EVENTS.expired, actor: SYSTEM_ACTOR, data: { quote_id: view.id, valid_until: view.valid_until } }],
            [quoteEvent(QUOTE_EVENTS.expired, accountId, SYSTEM_ACTOR, now, view)],
          );
          count += 1;
        }
        return count;
      });
    }
    return { expired };
  }
}
