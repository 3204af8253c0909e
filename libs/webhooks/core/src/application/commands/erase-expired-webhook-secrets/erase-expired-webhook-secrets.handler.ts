import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@leadflow/shared-kernel';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { EraseExpiredWebhookSecretsCommand } from './erase-expired-webhook-secrets.command';

/** Drops the previous secrets past their overlap (the claim already ignores them once expired: this erases them at rest). */
@CommandHandler(EraseExpiredWebhookSecretsCommand)
export class EraseExpiredWebhookSecretsHandler implements ICommandHandler<EraseExpiredWebhookSecretsCommand> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.subscriptions.eraseExpiredPreviousSecrets(this.clock.now());
  }
}
