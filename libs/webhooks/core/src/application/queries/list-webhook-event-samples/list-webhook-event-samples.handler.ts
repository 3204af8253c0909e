import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Page, unpaginated } from '@leadflow/shared-kernel';
import { WEBHOOK_EVENTS } from '@leadflow/webhooks-contracts';
import type { WebhookPayload } from '../../../domain/webhook-payload';
import { WebhookSamplesReadModel } from '../../ports/webhook-read-models.port';
import { ListWebhookEventSamplesQuery } from './list-webhook-event-samples.query';

/**
 * `GET /v1/webhook-events` (public-api-v1 › Endpoints › Webhooks; Events › Outbound webhooks): the latest
 * deliverable events, newest first, from the samples recorded when a subscription listened to them and
 * the activity-log entries whose type is a catalog name, in the delivery payload shape (`id` = the
 * source event id, `data.system` null). Works without any subscription. Not paginated.
 */
@QueryHandler(ListWebhookEventSamplesQuery)
export class ListWebhookEventSamplesHandler implements IQueryHandler<ListWebhookEventSamplesQuery> {
  constructor(private readonly samples: WebhookSamplesReadModel) {}

  async execute({ accountId, event, limit }: ListWebhookEventSamplesQuery): Promise<Page<WebhookPayload>> {
    return unpaginated(await this.samples.latest(accountId, event ? [event] : [...WEBHOOK_EVENTS], limit));
  }
}
