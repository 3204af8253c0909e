import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetEventsDataCommand } from '@leadflow/events-contracts';
import { EventsSandboxData } from '../../ports/events-sandbox-data.port';

/**
 * {@link ResetEventsDataCommand} (test mode, issue 15 item 4): deletes the account's registrations and
 * received custom events in the caller's transaction; events and editions stay. Answers rows deleted per
 * table.
 */
@CommandHandler(ResetEventsDataCommand)
export class ResetEventsDataHandler implements ICommandHandler<ResetEventsDataCommand> {
  constructor(private readonly sandbox: EventsSandboxData) {}

  execute({ accountId }: ResetEventsDataCommand): Promise<Record<string, number>> {
    return this.sandbox.deleteAccountData(accountId);
  }
}
