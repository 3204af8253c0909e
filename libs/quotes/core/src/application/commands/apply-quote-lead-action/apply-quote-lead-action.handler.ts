import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '@leadflow/shared-kernel';
import { ApplyQuoteLeadActionCommand, QuoteView } from '@leadflow/quotes-contracts';
import { QuoteNotFoundError } from '../../../domain/quotes.errors';
import { QuoteRepository } from '../../ports/quote.repository.port';
import { LeadActionRunner } from '../../lead-action.runner';

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
