import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetMessagingDataCommand } from '@leadflow/messaging-contracts';
import { deleteAccountRows, TransactionHost } from '@leadflow/shared-platform';

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
