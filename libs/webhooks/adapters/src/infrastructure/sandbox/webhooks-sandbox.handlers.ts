import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetWebhooksDataCommand } from '@leadflow/webhooks-contracts';
import { TransactionHost } from '@leadflow/shared-platform';
import type { EntityManager } from 'typeorm';

/** Children first. Test mode (issue 15, item 4): only the `webhooks` schema is touched. */
const WEBHOOKS_DATA_TABLES = [
  'webhooks.delivery_attempts',
  'webhooks.deliveries',
  'webhooks.event_samples',
] as const;

/** {@link ResetWebhooksDataCommand}: pure persistence (deletes the account's rows in the caller's transaction), so it lives with the adapters. */
@CommandHandler(ResetWebhooksDataCommand)
export class ResetWebhooksDataHandler implements ICommandHandler<ResetWebhooksDataCommand> {
  constructor(private readonly transactions: TransactionHost) {}

  execute({ accountId }: ResetWebhooksDataCommand): Promise<Record<string, number>> {
    return deleteAccountRows(this.transactions.manager, accountId, WEBHOOKS_DATA_TABLES);
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
