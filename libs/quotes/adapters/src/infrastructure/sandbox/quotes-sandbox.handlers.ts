import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetQuotesDataCommand } from '@leadflow/quotes-contracts';
import { TransactionHost } from '@leadflow/shared-platform';
import type { EntityManager } from 'typeorm';

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

/** Deletes the account's rows of each table in order; answers `{ <table>: rows deleted }`. */
async function deleteAccountRows(manager: EntityManager, accountId: string, tables: readonly string[]): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const table of tables) {
    const [{ n }] = await manager.query(`WITH gone AS (DELETE FROM ${table} WHERE account_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [accountId]);
    deleted[table] = n;
  }
  return deleted;
}
