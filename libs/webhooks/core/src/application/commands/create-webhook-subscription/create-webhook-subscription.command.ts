import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';
import type { CreatedWebhookSubscription } from '../../webhook-views';

/** `POST /v1/webhooks` by key `apiKeyId`; `url` and `events` as received (the handler checks them). */
export class CreateWebhookSubscriptionCommand extends Command<CreatedWebhookSubscription> {
  constructor(
    readonly accountId: AccountId,
    readonly apiKeyId: string,
    readonly actor: Actor,
    readonly url: unknown,
    readonly events: unknown,
  ) {
    super();
  }
}
