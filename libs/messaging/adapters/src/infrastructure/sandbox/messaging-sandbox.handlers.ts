import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetMessagingDataCommand } from '@leadflow/messaging-contracts';
import { TransactionHost } from '@leadflow/shared-platform';
import type { EntityManager } from 'typeorm';

/** Children first. Test mode (issue 15, item 4): only the `messaging` schema is touched. */
const MESSAGING_DATA_TABLES = [
  'messaging.outgoing_email_status_changes',
  'messaging.outgoing_emails',
  'messaging.email_threads',
  'messaging.conversation_messages',
  'messaging.conversations',
] as const;

/** {@link ResetMessagingDataCommand}: pure persistence (deletes the account's rows in the caller's transaction), so it lives with the adapters. */
@CommandHandler(ResetMessagingDataCommand)
export class ResetMessagingDataHandler implements ICommandHandler<ResetMessagingDataCommand> {
  constructor(private readonly transactions: TransactionHost) {}

  execute({ accountId }: ResetMessagingDataCommand): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, MESSAGING_DATA_TABLES);
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
