import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetContactsDataCommand } from '@leadflow/contacts-contracts';
import { ContactsSandboxData } from '../../ports/contacts-sandbox-data.port';

/**
 * {@link ResetContactsDataCommand} (test mode, issue 15 item 4): deletes the account's contacts and their
 * rows in the caller's transaction; tags and custom field definitions stay. Answers rows deleted per table.
 */
@CommandHandler(ResetContactsDataCommand)
export class ResetContactsDataHandler implements ICommandHandler<ResetContactsDataCommand> {
  constructor(private readonly sandbox: ContactsSandboxData) {}

  execute({ accountId }: ResetContactsDataCommand): Promise<Record<string, number>> {
    return this.sandbox.deleteAccountData(accountId);
  }
}
