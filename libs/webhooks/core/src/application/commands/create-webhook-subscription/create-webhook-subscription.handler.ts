import { randomBytes } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, Journal, newId, UnitOfWork, ValidationFailedError } from '@leadflow/shared-kernel';
import { MAX_SUBSCRIPTIONS_PER_ACCOUNT, SubscriptionLimitReachedError } from '../../../domain/webhooks.errors';
import { readEventSelection, urlViolations } from '../../../domain/webhook-subscription-rules';
import { WebhookSecretVault, WebhookTargetCheck } from '../../ports/webhook-sender.port';
import { WebhookSubscriptionRecord, WebhookSubscriptionRepository } from '../../ports/webhook-subscription.repository.port';
import { CreatedWebhookSubscription, toSubscriptionView } from '../../webhook-views';
import { CreateWebhookSubscriptionCommand } from './create-webhook-subscription.command';

/**
 * Creates a subscription (public-api-v1 › Endpoints › Webhooks; Limits). Rules, in order: `url` (400
 * `validation_error` reasons `required`, `invalid_format`, `https_required`) and `events` (`required`,
 * `invalid_value`, `unknown_event_type` on `events[i]`), reported together; then the SSRF check on `url`
 * (400 `validation_error` `non_public_target` or `unresolvable_host`); then, with the account's
 * creations serialised, the cap of 10 per account across keys (429 `subscription_limit_reached`).
 * The secret is 32 random bytes as 64 lowercase hex characters, stored encrypted; the row and the
 * `webhook_subscription_created` activity entry commit together.
 */
@CommandHandler(CreateWebhookSubscriptionCommand)
export class CreateWebhookSubscriptionHandler implements ICommandHandler<CreateWebhookSubscriptionCommand> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly vault: WebhookSecretVault,
    private readonly targets: WebhookTargetCheck,
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: Journal,
    private readonly clock: Clock,
  ) {}

  async execute({ accountId, apiKeyId, actor, url, events }: CreateWebhookSubscriptionCommand): Promise<CreatedWebhookSubscription> {
    const { selection, violations: eventViolations } = readEventSelection(events);
    const violations = [...urlViolations(url), ...eventViolations];
    if (violations.length > 0 || !selection) throw new ValidationFailedError(violations);
    await this.targets.check(url as string);
    const secret = randomBytes(32).toString('hex');
    const record: WebhookSubscriptionRecord = {
      id: newId(),
      accountId,
      apiKeyId,
      url: url as string,
      selection,
      secretCiphertext: this.vault.encrypt(secret),
      createdAt: this.clock.now(),
    };
    await this.unitOfWork.run(async () => {
      if ((await this.subscriptions.lockAndCount(accountId)) >= MAX_SUBSCRIPTIONS_PER_ACCOUNT) throw new SubscriptionLimitReachedError();
      await this.subscriptions.insert(record);
      await this.journal.record(accountId, [
        { contactId: null, type: 'webhook_subscription_created', actor, data: { subscription_id: record.id, url: record.url }, at: record.createdAt },
      ]);
    });
    return { ...toSubscriptionView(record), secret };
  }
}
