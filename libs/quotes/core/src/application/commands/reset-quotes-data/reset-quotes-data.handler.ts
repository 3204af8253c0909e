import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetQuotesDataCommand } from '@leadflow/quotes-contracts';
import { QuotesSandboxData } from '../../ports/quotes-sandbox-data.port';

/**
 * {@link ResetQuotesDataCommand} (test mode, issue 15 item 4): deletes the account's quotes, their payments
 * and its number sequences in the caller's transaction (numbering starts again at `<year>-0001`). Answers
 * rows deleted per table.
 */
@CommandHandler(ResetQuotesDataCommand)
export class ResetQuotesDataHandler implements ICommandHandler<ResetQuotesDataCommand> {
  constructor(private readonly sandbox: QuotesSandboxData) {}

  execute({ accountId }: ResetQuotesDataCommand): Promise<Record<string, number>> {
    return this.sandbox.deleteAccountData(accountId);
  }
}
