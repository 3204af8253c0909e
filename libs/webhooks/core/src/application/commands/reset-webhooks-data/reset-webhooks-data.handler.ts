import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResetWebhooksDataCommand } from '@leadflow/webhooks-contracts';
import { WebhooksSandboxData } from '../../ports/webhooks-sandbox-data.port';

/**
 * {@link ResetWebhooksDataCommand} (test mode, issue 15 item 4): deletes the account's webhook deliveries,
 * their attempts and the event samples in the caller's transaction; subscriptions stay. Answers rows
 * deleted per table.
 */
@CommandHandler(ResetWebhooksDataCommand)
export class ResetWebhooksDataHandler implements ICommandHandler<ResetWebhooksDataCommand> {
  constructor(private readonly sandbox: WebhooksSandboxData) {}

  execute({ accountId }: ResetWebhooksDataCommand): Promise<Record<string, number>> {
    return this.sandbox.deleteAccountData(accountId);
  }
}
