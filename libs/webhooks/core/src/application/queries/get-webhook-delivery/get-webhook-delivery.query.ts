import { Query } from '@nestjs/cqrs';
import type { AccountId } from '@leadflow/shared-kernel';
import type { PublicDeliveryView } from '../../ports/webhook-read-models.port';

/** `GET /v1/webhooks/{id}/deliveries/{delivery_id}` of key `apiKeyId`. */
export class GetWebhookDeliveryQuery extends Query<PublicDeliveryView> {
  constructor(
    readonly accountId: AccountId,
    readonly apiKeyId: string,
    readonly subscriptionId: string,
    readonly deliveryId: string,
  ) {
    super();
  }
}
