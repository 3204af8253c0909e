import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetAutomationsDataCommand } from '@leadflow/automations-contracts';
import { AutomationsSandboxData } from '../../ports/automations-sandbox-data.port';

/**
 * {@link ResetAutomationsDataCommand} (test mode, issue 15 item 4): deletes the account's executions and
 * their steps in the caller's transaction; automations stay. Answers rows deleted per table.
 */
@CommandHandler(ResetAutomationsDataCommand)
export class ResetAutomationsDataHandler implements ICommandHandler<ResetAutomationsDataCommand> {
  constructor(private readonly sandbox: AutomationsSandboxData) {}

  execute({ accountId }: ResetAutomationsDataCommand): Promise<Record<string, number>> {
    return this.sandbox.deleteAccountData(accountId);
  }
}
