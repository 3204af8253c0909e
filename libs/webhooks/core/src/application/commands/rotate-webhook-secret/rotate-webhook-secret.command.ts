import { Command } from '@nestjs/cqrs';
import type { AccountId, Actor } from '@leadflow/shared-kernel';

/** The 200 body of `POST /v1/webhooks/{id}/rotate-secret`: the new secret, in clear this once. */
export interface RotatedWebhookSecret {
  id: string;
  secret: string;
  /** ISO 8601 UTC: until then deliveries are also signed with the previous secret. */
  previous_secret_expires_at: string;
}

/** `POST /v1/webhooks/{id}/rotate-secret` by key `apiKeyId` (`subscriptionId` a lowercase UUID). */
export class RotateWebhookSecretCommand extends Command<RotatedWebhookSecret> {
  constructor(
    readonly accountId: AccountId,
    readonly apiKeyId: string,
    readonly actor: Actor,
    readonly subscriptionId: string,
  ) {
    super();
  }
}
