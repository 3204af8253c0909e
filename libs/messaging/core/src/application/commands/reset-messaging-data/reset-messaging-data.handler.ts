import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetMessagingDataCommand } from '@leadflow/messaging-contracts';
import { MessagingSandboxData } from '../../ports/messaging-sandbox-data.port';

/**
 * {@link ResetMessagingDataCommand} (test mode, issue 15 item 4): deletes the account's outgoing emails
 * (and their status changes), email threads and conversations in the caller's transaction; senders stay.
 * Answers rows deleted per table.
 */
@CommandHandler(ResetMessagingDataCommand)
export class ResetMessagingDataHandler implements ICommandHandler<ResetMessagingDataCommand> {
  constructor(private readonly sandbox: MessagingSandboxData) {}

  execute({ accountId }: ResetMessagingDataCommand): Promise<Record<string, number>> {
    return this.sandbox.deleteAccountData(accountId);
  }
}
