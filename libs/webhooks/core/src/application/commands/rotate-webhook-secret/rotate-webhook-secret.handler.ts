import { randomBytes } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, UnitOfWork } from '@leadflow/shared-kernel';
import { WebhookSubscriptionNotFoundError } from '../../../domain/webhooks.errors';
import { WebhookSecretVault } from '../../ports/webhook-sender.port';
import { WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { RotatedWebhookSecret, RotateWebhookSecretCommand } from './rotate-webhook-secret.command';

/** How long the previous secret keeps signing after a rotation. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 3_600_000;

/**
 * Secret rotation without downtime (issue 15, item 2): a new 64-hex secret (returned once, stored
 * encrypted); the current one becomes the previous one and keeps signing for 24 hours (both signatures
 * in `webhook-signature` and both `v1` in `X-Service-Signature`), then it is erased (by the sweeper's
 * pass). A second rotation within the 24 h replaces the previous secret with the one it rotates out.
 * 404 `not_found` `{ resource: 'webhook' }` unless the subscription is the account's and the calling key's.
 * Journals `webhook_secret_rotated` (never the secret).
 */
@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecretCommand> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly vault: WebhookSecretVault,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, apiKeyId, actor, subscriptionId }: RotateWebhookSecretCommand): Promise<RotatedWebhookSecret> {
    const secret = randomBytes(32).toString('hex');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS);
    await this.unitOfWork.run(async () => {
      const rotated = await this.subscriptions.rotateSecret(accountId, apiKeyId, subscriptionId, this.vault.encrypt(secret), expiresAt);
      if (!rotated) throw new WebhookSubscriptionNotFoundError();
      await this.journal.record(accountId, [
        { contactId: null, type: 'webhook_secret_rotated', actor, data: { subscription_id: subscriptionId, previous_secret_expires_at: expiresAt.toISOString() }, at: now },
      ]);
    });
    return { id: subscriptionId, secret, previous_secret_expires_at: expiresAt.toISOString() };
  }
}
