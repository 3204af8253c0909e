import { Injectable } from '@nestjs/common';
import { QuotesSandboxData } from '@leadflow/quotes-core';
import { AccountId } from '@leadflow/shared-kernel';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

/** Children first. Test mode (issue 15, item 4): only the `quotes` schema is touched. */
const QUOTES_DATA_TABLES = [
  'quotes.quote_payments',
  'quotes.quotes',
  'quotes.quote_sequences',
] as const;

/** {@link QuotesSandboxData} on PostgreSQL: deletes the account's rows in the caller's transaction. */
@Injectable()
export class PostgresQuotesSandboxData extends QuotesSandboxData {
  constructor(private readonly transactions: TransactionHost) {
    super();
  }

  deleteAccountData(accountId: AccountId): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, QUOTES_DATA_TABLES);
  }
}
