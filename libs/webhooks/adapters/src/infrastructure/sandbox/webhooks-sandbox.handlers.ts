import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetWebhooksDataCommand } from '@leadflow/webhooks-contracts';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

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
