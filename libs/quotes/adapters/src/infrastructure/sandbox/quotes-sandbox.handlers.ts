import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetQuotesDataCommand } from '@leadflow/quotes-contracts';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

/** Children first. Test mode (issue 15, item 4): only the `quotes` schema is touched. */
const QUOTES_DATA_TABLES = [
  'quotes.quote_payments',
  'quotes.quotes',
  'quotes.quote_sequences',
] as const;

/** {@link ResetQuotesDataCommand}: pure persistence (deletes the account's rows in the caller's transaction), so it lives with the adapters. */
@CommandHandler(ResetQuotesDataCommand)
export class ResetQuotesDataHandler implements ICommandHandler<ResetQuotesDataCommand> {
  constructor(private readonly transactions: TransactionHost) {}

  execute({ accountId }: ResetQuotesDataCommand): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, QUOTES_DATA_TABLES);
  }
}
