import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** `DELETE /v1/webhooks/{id}` by key `apiKeyId` (`id` already a lowercase UUID). */
export class DeleteWebhookSubscriptionCommand extends Command<void> {
  constructor(
    readonly accountId: AccountId,
    readonly apiKeyId: string,
    readonly actor: Actor,
    readonly subscriptionId: string,
  ) {
    super();
  }
}
